#!/usr/bin/env python3
"""BROAD's undisturbed dev trials with a magnet attached to the board, for our filter and VQF.

    python3 tools/benchmarks/attached_magnet.py --motionctl .build/release/motionctl \
        --dataset ../shared/datasets/broad [--out /tmp/attached-magnet] [--strengths 5,9,14]

A magnet fastened to the board near the sensor turns with it: it adds a constant vector in
the device's axes to every magnetometer sample. That is what BROAD's attached-magnet trials show:
the magnetometer minus the truth-rotated Earth field (from the first 15 s at rest) is a constant
(0.5, −0.3, −6.3) µT with the magnet 5 cm away and (−1.5, 0.4, 13.4) µT at 3 cm, for as long as it
is attached. So the same disturbance can be put on any trial whose truth is known, at strengths and
directions BROAD's four dev trials do not have (its hold-out has a fifth, 4 cm away).

For each undisturbed dev trial (01–18) and each strength, one fixed random direction (seeded, so
every run writes the same trials): the offset is added from 8 s before the motion (the board still
lying there, as in BROAD's trials) to 52 s into it, ramped over 1 s at each end. The truth and
labels are the trial's own. Then `fusion_vs_vqf.py` runs both filters and scores them (9D total,
heading and inclination RMSE, degrees) with the shared scorer.

A physical limit: in a translation trial the board barely turns, so a fastened magnet cannot be
told from a change of the place's field; both filters lose heading there.
"""
import argparse, gzip, json, pathlib, shutil, subprocess, sys
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent


def write_trial(source, dataset, out, strength, direction):
    name = source.name[: -len(".csv.gz")]
    labels = json.loads((dataset / f"{name}.json").read_text())
    start = labels["score"]["start"]
    attached, removed = start - 8, start + 52
    offset = direction * strength
    new = f"{name[:2]}_magnet{strength:g}uT"
    with gzip.open(source, "rt") as f, gzip.open(out / f"{new}.csv.gz", "wt") as g:
        for line in f:
            if not line.startswith(("#", "t,")):
                parts = line.rstrip("\n").split(",")
                if parts[1] == "mag":
                    t = float(parts[0])
                    weight = min(1.0, max(0.0, t - attached)) * min(1.0, max(0.0, removed - t))
                    if weight > 0:
                        parts[2:5] = [f"{float(parts[2 + i]) + weight * offset[i]:.2f}" for i in range(3)]
                        line = ",".join(parts) + "\n"
            g.write(line)
    shutil.copy(dataset / f"{name}.truth.csv.gz", out / f"{new}.truth.csv.gz")
    labels.update(condition="disturbed", disturbance="attached_magnet",
                  attached_magnet={"offset_uT": [round(v, 2) for v in offset], "attached_s": attached, "removed_s": removed})
    (out / f"{new}.json").write_text(json.dumps(labels))
    return new, offset


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--dataset", required=True, type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("/tmp/attached-magnet"))
    parser.add_argument("--strengths", default="5,9,14", help="µT, comma-separated")
    args = parser.parse_args()
    trials = args.out / "trials"
    shutil.rmtree(trials, ignore_errors=True)
    trials.mkdir(parents=True)
    random = np.random.default_rng(7)
    strengths = [float(s) for s in args.strengths.split(",")]
    for source in sorted(args.dataset.glob("[01]?_undisturbed_*.csv.gz")):
        if source.name.endswith(".truth.csv.gz"):
            continue
        for strength in strengths:
            direction = random.normal(size=3)
            name, offset = write_trial(source, args.dataset, trials, strength, direction / np.linalg.norm(direction))
            print(f"{name}: offset {np.round(offset, 1)} µT", file=sys.stderr)
    subprocess.run([sys.executable, str(HERE / "fusion_vs_vqf.py"), "--motionctl", args.motionctl, "--dataset", str(trials),
                    "--out", str(args.out / "outputs"), "--repeat", "1"], check=True)


if __name__ == "__main__":
    main()
