#!/usr/bin/env python3
"""Cut the small real recordings bundled in Tests/Recordings from ../shared/datasets.

Only CC BY 4.0 data sets may be copied into the project (../shared/datasets/README.md). Each
excerpt keeps the source's rows byte for byte inside a time window, adds `# note:` lines saying
it is an excerpt, and gets a trimmed `.json` label sidecar. Run from the repository root:

    python3 tools/datasets/bundle_test_recordings.py [NAME ...]   # only these excerpts
"""
import gzip
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"
OUT = ROOT / "Tests" / "Recordings"

# (output name, source data set, trial, start s, end s)
EXCERPTS = [
    ("uci_hapt_exp01_user01_stand_walk", "uci_hapt_raw", "exp01_user01", 140.0, 240.0),
    ("oxford_pixel_frontpocket_walk", "oxford_step_counter", "oxford_pixel_jamie_hard_frontpocket_1", 0.0, 40.0),
    ("broad_01_slow_rotation", "broad", "01_undisturbed_slow_rotation_A", 0.0, 20.0),
    # The demo's walk (tools/setup.sh demo): 90 s, a subject and phone the tests do not use.
    ("oxford_samsung_frontpocket_walk_90s", "oxford_step_counter", "oxford_samsung_carmelo_hard_frontpocket_1", 0.0, 90.0),
]


def cut(name, dataset, trial, start, end):
    source = SHARED / dataset / f"{trial}.csv.gz"
    rows = 0
    with gzip.open(source, "rt", newline="") as src, gzip.open(OUT / f"{name}.csv.gz", "wt", newline="") as dst:
        for line in src:
            if line.startswith("t,sensor"):
                dst.write(f"# note: excerpt t in [{start}, {end}) s of {dataset}/{trial}, rows unchanged\n")
                dst.write(line)
                continue
            if line.startswith("#"):
                dst.write(line)
                continue
            t = float(line.split(",", 1)[0])
            if start <= t < end:
                dst.write(line)
                rows += 1
    labels = json.loads((SHARED / dataset / f"{trial}.json").read_text())
    trimmed = {k: v for k, v in labels.items() if k not in ("steps", "step_times", "activity", "score")}
    if "step_times" in labels:
        trimmed["step_times"] = [t for t in labels["step_times"] if start <= t < end]
        trimmed["steps"] = len(trimmed["step_times"])
    if "activity" in labels:
        trimmed["activity"] = [
            dict(a, start=max(a["start"], start), end=min(a["end"], end))
            for a in labels["activity"] if a["end"] > start and a["start"] < end
        ]
    trimmed["score"] = {"start": start, "end": end}
    (OUT / f"{name}.json").write_text(json.dumps(trimmed, indent=1) + "\n")
    truth = SHARED / dataset / f"{trial}.truth.csv.gz"
    if truth.exists():
        with gzip.open(truth, "rt") as src, gzip.open(OUT / f"{name}.truth.csv.gz", "wt") as dst:
            for line in src:
                if line[0].isdigit() and not (start <= float(line.split(",", 1)[0]) < end):
                    continue
                dst.write(line)
    print(f"{name}: {rows} rows")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    import sys
    for excerpt in EXCERPTS:
        if len(sys.argv) == 1 or excerpt[0] in sys.argv[1:]:
            cut(*excerpt)
