#!/usr/bin/env python3
"""Device motion from a stored calibration, as a board or phone starts after its first use.

    python3 tools/benchmarks/warm_start.py --motionctl .build/release/motionctl \
        --dataset ../shared/datasets/phone_attitude [--out /tmp/warm_start]

A phone's own fusion starts every recording with the magnetometer calibration it has kept from
earlier use; `motionctl replay` of a recording starts cold (hundreds of µT of hard iron to learn
first). A live board keeps what the online calibration learned (`OnlineCalibrationSaver`, the
board's calibration file) and starts from it. This script replays each device's trials in name
order through that same path: each trial starts from the calibration file as the device's
earlier trials left it (`replay --calibration FILE --save-calibration FILE`: written only when
the online calibration knows the offset to high accuracy and better than the file). The first
trial of each device starts cold. Every replay uses x-magnetic-north-z-vertical and is scored
with ../shared/eval/score_orientation.py (9D), beside the cold replay and the phones' own
fusion (NAME.phone.csv.gz). No trial's own data is used for its own start.
"""
import argparse
import collections
import json
import pathlib
import shutil
import subprocess
import sys


def replay(motionctl: str, recording: pathlib.Path, out: pathlib.Path, calibration: pathlib.Path | None) -> None:
    command = [motionctl, "replay", str(recording), "--out", str(out), "--frame", "x-magnetic-north-z-vertical"]
    if calibration is not None:
        if calibration.exists():
            command += ["--calibration", str(calibration)]
        command += ["--save-calibration", str(calibration)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{recording.name}: replay failed:\n{done.stderr[-1500:]}")


def score(evaluator: pathlib.Path, dataset: pathlib.Path, outputs: pathlib.Path) -> dict[str, tuple[float, float]]:
    report = outputs / "score.json"
    done = subprocess.run([sys.executable, str(evaluator), "--dataset", str(dataset), "--outputs", str(outputs),
                           "--json", str(report)], capture_output=True, text=True)
    if done.returncode != 0 or not report.exists():
        sys.exit(f"score_orientation.py failed:\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    trials = json.loads(report.read_text()).get("trials", [])
    return {row["trial"]: (row["total"], row["heading"]) for row in trials}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--dataset", required=True, type=pathlib.Path)
    parser.add_argument("--out", default="/tmp/warm_start", type=pathlib.Path)
    args = parser.parse_args()
    evaluator = pathlib.Path(__file__).resolve().parents[3] / "shared" / "eval" / "score_orientation.py"
    if not evaluator.exists():
        evaluator = args.dataset.resolve().parents[1] / "eval" / "score_orientation.py"
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)

    labels = {path.name[:-len(".json")]: json.loads(path.read_text()) for path in sorted(args.dataset.glob("*.json"))
              if (args.dataset / (path.name[:-len(".json")] + ".truth.csv.gz")).exists()}
    devices = collections.defaultdict(list)
    for name, label in labels.items():
        devices[label.get("device", name)].append(name)
    first = set()
    for device, names in devices.items():
        calibration = args.out / f"{device}.calibration"
        first.add(names[0])
        for name in names:
            recording = args.dataset / f"{name}.csv.gz"
            replay(args.motionctl, recording, args.out / "cold" / name, None)
            replay(args.motionctl, recording, args.out / "warm" / name, calibration)
    phone_outputs = args.out / "phone"
    for name in labels:
        own = args.dataset / f"{name}.phone.csv.gz"
        if own.exists():
            (phone_outputs / name).mkdir(parents=True, exist_ok=True)
            subprocess.run(f"gzip -dc '{own}' > '{phone_outputs / name / 'device_motion.csv'}'", shell=True, check=True)

    cold, warm = score(evaluator, args.dataset, args.out / "cold"), score(evaluator, args.dataset, args.out / "warm")
    phone = score(evaluator, args.dataset, phone_outputs) if phone_outputs.exists() else {}
    print("| trial | carry | cold start 9D total / heading | from the stored calibration | the phone's own fusion |")
    print("|---|---|---|---|---|")
    by_carry = collections.defaultdict(list)
    for name, label in labels.items():
        c, w, p = cold.get(name), warm.get(name), phone.get(name)
        note = " (first: cold)" if name in first else ""
        cell = lambda v: f"{v[0]:.1f} / {v[1]:.1f}" if v else "–"
        print(f"| {name}{note} | {label.get('motion', label.get('carry', ''))} | {cell(c)} | {cell(w)} | {cell(p)} |")
        if c and w and name not in first:
            by_carry[label.get("motion", label.get("carry", ""))].append((c[0], w[0], p[0] if p else float("nan")))
    print()
    print("| carry (trials started from a stored calibration) | cold | stored | phone's own |")
    print("|---|---|---|---|")
    rows = [row for values in by_carry.values() for row in values]
    for carry, values in sorted(by_carry.items()):
        mean = lambda i: sum(v[i] for v in values) / len(values)
        print(f"| {carry} ({len(values)}) | {mean(0):.1f} | {mean(1):.1f} | {mean(2):.1f} |")
    if rows:
        mean = lambda i: sum(v[i] for v in rows) / len(rows)
        print(f"| all ({len(rows)}) | {mean(0):.1f} | {mean(1):.1f} | {mean(2):.1f} |")


if __name__ == "__main__":
    main()
