#!/usr/bin/env python3
"""Does `motionctl calibrate stride` improve distance? Measured on ipol_gait_steps (issue 6).

    python3 tools/benchmarks/stride_calibration.py --motionctl .build/release/motionctl \
        --dataset ../shared/datasets/ipol_gait_steps

Every IPOL trial is the same protocol walk: 10 m, a U-turn, 10 m back, so 20 m between the
json's `trial_boundaries` (first toe-off, last heel strike). For each subject, their first trial
calibrates the stride (`calibrate stride --recording T --distance 20 --from A --to B`, in a
scratch profile folder); the scale is then applied to their other trials. Prints the mean
absolute distance error (%) on those other trials with the published model (scale 1) and with
the subject's calibrated scale. The height is the default 170 cm: the set does not give it,
which is exactly what calibration corrects.
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

LINE = re.compile(r"(\d+) steps, ([0-9.]+) m by the model for ([0-9.]+) cm → stride scale ([0-9.]+)")


def model_distance(motionctl, recording, start, end, scratch):
    """Steps and model distance (scale 1) of the walk between start and end, s."""
    done = subprocess.run([motionctl, "calibrate", "stride", "--recording", str(recording), "--distance", "20",
                           "--from", f"{start}", "--to", f"{end}"],
                          capture_output=True, text=True, env={**os.environ, "OCM_CALIBRATION_DIR": scratch})
    match = LINE.search(done.stdout)
    if not match:
        raise RuntimeError(f"{recording.name}: {done.stdout[-400:]}{done.stderr[-400:]}")
    return int(match.group(1)), float(match.group(2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--dataset", required=True, type=pathlib.Path)
    args = parser.parse_args()
    by_subject = {}
    with tempfile.TemporaryDirectory() as scratch:
        for label in sorted(args.dataset.glob("*.json")):
            meta = json.loads(label.read_text())
            start, end = meta["trial_boundaries"]
            # Half a step of margin: the first step lands after the first toe-off.
            steps, meters = model_distance(args.motionctl, label.with_suffix("").with_suffix(".csv.gz"), start - 0.3, end + 0.3, scratch)
            by_subject.setdefault(meta["subject"], []).append((label.stem, steps, meters))
    before, after = [], []
    print("| subject | calibration trial | scale | other trials | error, model % | error, calibrated % |")
    print("|---|---|---|---|---|---|")
    for subject, trials in sorted(by_subject.items()):
        if len(trials) < 2:
            continue
        name, _, meters = trials[0]
        scale = 20 / meters
        errors_model = [abs(m - 20) / 20 * 100 for _, _, m in trials[1:]]
        errors_calibrated = [abs(scale * m - 20) / 20 * 100 for _, _, m in trials[1:]]
        before += errors_model
        after += errors_calibrated
        print(f"| {subject} | {name} | {scale:.3f} | {len(trials) - 1} | {statistics.mean(errors_model):.1f} | {statistics.mean(errors_calibrated):.1f} |")
    print(f"\nmean absolute distance error over {len(before)} trials: model {statistics.mean(before):.1f} %, "
          f"calibrated {statistics.mean(after):.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
