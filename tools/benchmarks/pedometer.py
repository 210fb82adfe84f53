#!/usr/bin/env python3
"""The pedometer's accuracy on every data set, in one table (issue 6).

    python3 tools/benchmarks/pedometer.py --motionctl .build/release/motionctl \
        --datasets ../shared/datasets [--out /tmp/pedometer-bench] [--jobs 2]

Replays each data set with `motionctl replay` (../shared/eval/replay_dataset.py) and scores it
with the shared scorers, then prints per data set: mean absolute step error (%), signed error,
step-event F1, false steps per minute while still, floors exact (%) and false floors on lifts,
pause/resume precision, recall and median latency. Each scorer's full per-trial report is kept in
OUT/NAME.report.txt. Time per sample is measured by the Benchmarks package (README).
"""
import argparse
import json
import pathlib
import subprocess
import sys

# data set → scorers that apply to it
SCORERS = {
    "oxford_step_counter": ["score_steps.py", "score_pedometer_events.py"],
    "ipol_gait_steps": ["score_steps.py", "score_pedometer_events.py"],
    "uci_hapt_raw": ["score_false_steps.py"],
    "broad": ["score_false_steps.py"],
    "floors_bmp180_stairs": ["score_floors.py"],
    "floors_stairs_lift_bangle": ["score_floors.py"],
}


def summary(output: str) -> dict:
    for line in reversed(output.splitlines()):
        if line.startswith("SUMMARY "):
            return json.loads(line[len("SUMMARY "):])
    raise RuntimeError("scorer printed no SUMMARY line:\n" + output[-2000:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--datasets", required=True, type=pathlib.Path)
    parser.add_argument("--out", default="/tmp/pedometer-bench", type=pathlib.Path)
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--only", nargs="*", help="data set names (default: all that exist)")
    args = parser.parse_args()
    eval_dir = args.datasets.parent / "eval"
    rows = []
    for name, scorers in SCORERS.items():
        dataset = args.datasets / name
        if not dataset.is_dir() or (args.only and name not in args.only):
            continue
        out = args.out / name
        replay = subprocess.run([sys.executable, str(eval_dir / "replay_dataset.py"), "--motionctl", args.motionctl,
                                 "--dataset", str(dataset), "--out", str(out), "--jobs", args.jobs],
                                capture_output=True, text=True)
        if replay.returncode != 0:
            print(f"{name}: replay failed:\n{replay.stdout[-1500:]}{replay.stderr[-1500:]}", file=sys.stderr)
            return 1
        row = {"data set": name}
        report = []
        for scorer in scorers:
            done = subprocess.run([sys.executable, str(eval_dir / scorer), "--dataset", str(dataset), "--outputs", str(out)],
                                  capture_output=True, text=True)
            report.append(done.stdout + done.stderr)
            s = summary(done.stdout)
            if scorer == "score_steps.py":
                row["steps err %"] = s.get("mean_abs_error_pct")
                row["signed %"] = s.get("mean_signed_error_pct")
                row["F1"] = s.get("f1_mean")
            elif scorer == "score_false_steps.py":
                row["false/min"] = s.get("false_steps_per_min")
            elif scorer == "score_floors.py":
                row["floors exact %"] = s.get("exact_pct")
                row["lift floors"] = s.get("elevator_false_floors")
            elif scorer == "score_pedometer_events.py":
                row["events P/R"] = f"{s.get('precision', 0):.2f}/{s.get('recall', 0):.2f}" if s.get("trials_scored") else None
                row["event latency s"] = s.get("median_latency_s")
        (args.out / f"{name}.report.txt").write_text("\n".join(report))
        rows.append(row)
    columns = ["data set", "steps err %", "signed %", "F1", "false/min", "floors exact %", "lift floors", "events P/R", "event latency s"]

    def cell(value):
        if value is None:
            return "—"
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(cell(row.get(c)) for c in columns) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
