#!/usr/bin/env python3
"""Relative altitude (CMAltimeter) against the height changes the barometer data sets label (issue 9).

    python3 tools/benchmarks/altitude.py --motionctl .build/release/motionctl \
        --datasets ../shared/datasets [--out /tmp/altitude-bench]

Replays every recording of the data sets whose labels give a height change (`height_change_m`
in NAME.json: floors_bmp180_stairs, floors_stairs_lift_bangle) with `motionctl replay` and reads
its altitude.csv (t, relative_altitude m, pressure kPa). Per recording:

- window error: the mean relative altitude over the label's "after" window minus the mean over
  its "before" window, minus the labelled change. The windows are the ones the labels were made
  with (the data set READMEs): 8.8 s before and after the labelled stair/lift segment, or the
  first and last 10 samples where the segment is the whole file.
- final error: the relative altitude at the last sample (the net change since the start, what
  an app reading CMAltitudeData at the end sees) minus the labelled change; it also holds what
  happens outside the windows (walking to the lift, the filter's 1 s lag at a file that ends
  mid-climb).

Then the RMSE of both over all recordings. A last line `SUMMARY {json}` holds the figures.
Note that the labels are themselves computed from the recordings' pressure (hypsometric
equation at a stated temperature), so this measures the pipeline's conversion, temperature
handling and filtering against that definition, not against a surveyed building height.
"""
import argparse
import csv
import json
import math
import pathlib
import subprocess
import sys

WINDOW_S = 8.8       # the bangle set's before/after window (its README)
EDGE_SAMPLES = 10    # the BMP180 set's first/last lines (its README)


def read_altitude(path: pathlib.Path) -> list[tuple[float, float]]:
    with path.open() as file:
        return [(float(row["t"]), float(row["relative_altitude"])) for row in csv.DictReader(file)]


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def windows(rows: list[tuple[float, float]], label: dict) -> tuple[list[float], list[float]]:
    """The relative altitudes in the label's before and after windows."""
    segments = [s for s in label.get("activity", []) if s.get("label") != "transition"]
    before = after = []
    if segments:
        start, end = segments[0]["start"], segments[-1]["end"]
        before = [h for t, h in rows if start - WINDOW_S <= t < start]
        after = [h for t, h in rows if end < t <= end + WINDOW_S]
    if not before:
        before = [h for _, h in rows[:EDGE_SAMPLES]]
    if not after:
        after = [h for _, h in rows[-EDGE_SAMPLES:]]
    return before, after


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--datasets", required=True, type=pathlib.Path)
    parser.add_argument("--out", default="/tmp/altitude-bench", type=pathlib.Path)
    args = parser.parse_args()

    results = []
    for label_path in sorted(args.datasets.glob("*/*.json")):
        label = json.loads(label_path.read_text())
        recording = label_path.with_suffix(".csv.gz")
        if "height_change_m" not in label or not recording.exists():
            continue
        out = args.out / label_path.parent.name / label_path.stem
        replay = subprocess.run([args.motionctl, "replay", str(recording), "--out", str(out)], capture_output=True, text=True)
        if replay.returncode != 0:
            print(f"{recording}: replay failed:\n{replay.stdout[-1500:]}{replay.stderr[-1500:]}", file=sys.stderr)
            return 1
        rows = read_altitude(out / "altitude.csv")
        if not rows:
            print(f"{recording}: altitude.csv is empty (no barometer rows?)", file=sys.stderr)
            return 1
        before, after = windows(rows, label)
        truth = label["height_change_m"]
        measured = mean(after) - mean(before)
        results.append({
            "data set": label_path.parent.name, "recording": label_path.stem,
            "mode": label.get("vertical_mode", "?"), "truth_m": truth, "measured_m": measured,
            "window_error_m": measured - truth, "final_error_m": rows[-1][1] - truth,
        })

    if not results:
        print(f"no recording with height_change_m under {args.datasets}", file=sys.stderr)
        return 1
    print(f"{'recording':<22} {'mode':<9} {'truth m':>8} {'measured m':>10} {'window err m':>12} {'final err m':>11}")
    for r in results:
        print(f"{r['recording']:<22} {r['mode']:<9} {r['truth_m']:>8.2f} {r['measured_m']:>10.2f} "
              f"{r['window_error_m']:>+12.3f} {r['final_error_m']:>+11.3f}")
    rmse_window = math.sqrt(mean([r["window_error_m"] ** 2 for r in results]))
    rmse_final = math.sqrt(mean([r["final_error_m"] ** 2 for r in results]))
    relative = math.sqrt(mean([(r["window_error_m"] / r["truth_m"]) ** 2 for r in results])) * 100
    print(f"RMSE over {len(results)} recordings: window {rmse_window:.3f} m ({relative:.2f} % of the change), final {rmse_final:.3f} m")
    print("SUMMARY " + json.dumps({"recordings": len(results), "rmse_window_m": round(rmse_window, 4),
                                   "rmse_window_percent": round(relative, 3), "rmse_final_m": round(rmse_final, 4),
                                   "per_recording": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
