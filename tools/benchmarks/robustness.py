#!/usr/bin/env python3
"""The pedometer's robustness suite on dev recordings: the same walk seen differently.

    python3 tools/benchmarks/robustness.py --motionctl .build/release/motionctl \
        --datasets ../shared/datasets [--trials SET/NAME ...] [--out /tmp/robustness]

Each trial is rewritten (ocm-recording v1, into OUT) as: itself; turned by three seeded random
fixed device rotations (acc, gyr and mag alike); resampled to 25, 50, 100 and 200 Hz (linear
interpolation on a uniform grid, after a moving average over the new interval so that
downsampling does not alias); its motion (acc minus its 1 s moving average) scaled by 0.7 and
1.3; with white noise of 0.1 m/s² (acc) and 0.01 rad/s (gyr) added; and without its gyroscope.
Every version is replayed with `motionctl replay` and scored with ../shared/eval/score_steps.py.

Reported per trial: the truth, each version's count, the spread of the counts (largest minus
smallest over the truth, %), the worst version's error, and rhythmic windows: every 20 s span of
truth steps at a steady interval (each interval within ±25 % of the span's median) credited
less than 90 % of its steps in any version. The issue's bounds: counts within 2 % of each other
and of the truth, no such window. Tests/MotionEngineTests/StepRobustnessTests.swift asserts the
same on the bundled recording in every test run.
"""
import argparse
import gzip
import json
import math
import pathlib
import random
import subprocess
import sys

DEFAULT_TRIALS = ["oxford_step_counter/oxford_pixel_jamie_hard_frontpocket_1",
                  "oxford_step_counter/oxford_samsung_dario_hard_backpocket_2",
                  "ipol_gait_steps/ipol_s01_t1", "weallwalk/weallwalk_id03_wc_t2_1l",
                  "weallwalk/weallwalk_id05_wc_t2_2r", "brajdic_handheld/brajdic_p05_w1"]


def read(path: pathlib.Path):
    header, rows = [], []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#") or line.startswith("t,"):
                header.append(line)
                continue
            t, kind, *values = line.strip().split(",")
            rows.append((float(t), kind, [float(v) for v in values]))
    return header, rows


def write(path: pathlib.Path, header, rows):
    with gzip.open(path, "wt") as f:
        f.writelines(header)
        for t, kind, v in sorted(rows, key=lambda r: r[0]):
            f.write(f"{t:.6f},{kind}," + ",".join(f"{x:.5f}" for x in v) + "\n")


def rotation(seed: int):
    """A uniformly random rotation matrix (Shoemake's quaternion method), seeded."""
    r = random.Random(seed)
    u1, u2, u3 = r.random(), r.random(), r.random()
    q = (math.sqrt(1 - u1) * math.sin(2 * math.pi * u2), math.sqrt(1 - u1) * math.cos(2 * math.pi * u2),
         math.sqrt(u1) * math.sin(2 * math.pi * u3), math.sqrt(u1) * math.cos(2 * math.pi * u3))
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def rotated(rows, m):
    return [(t, k, [sum(m[i][j] * v[j] for j in range(3)) for i in range(3)]) for t, k, v in rows]


def streams(rows):
    by = {}
    for t, k, v in rows:
        by.setdefault(k, []).append((t, v))
    return by


def moving_average(samples, seconds):
    """Centered moving average over `seconds` (by time), per axis."""
    out, lo, hi, acc = [], 0, 0, [0.0, 0.0, 0.0]
    for t, _ in samples:
        while hi < len(samples) and samples[hi][0] <= t + seconds / 2:
            acc = [a + b for a, b in zip(acc, samples[hi][1])]
            hi += 1
        while samples[lo][0] < t - seconds / 2:
            acc = [a - b for a, b in zip(acc, samples[lo][1])]
            lo += 1
        out.append([a / (hi - lo) for a in acc])
    return out


def resampled(rows, rate):
    out = []
    for kind, samples in streams(rows).items():
        if kind not in ("acc", "gyr", "mag"):
            out += [(t, kind, v) for t, v in samples]
            continue
        smooth = moving_average(samples, 1 / rate) if len(samples) / (samples[-1][0] - samples[0][0]) > rate else [v for _, v in samples]
        times = [t for t, _ in samples]
        t, i = times[0], 0
        while t <= times[-1]:
            while i + 1 < len(times) - 1 and times[i + 1] < t:
                i += 1
            t0, t1 = times[i], times[min(i + 1, len(times) - 1)]
            w = 0.0 if t1 == t0 else min(1.0, max(0.0, (t - t0) / (t1 - t0)))
            v0, v1 = smooth[i], smooth[min(i + 1, len(times) - 1)]
            out.append((t, kind, [a + (b - a) * w for a, b in zip(v0, v1)]))
            t += 1 / rate
    return out


def scaled(rows, factor):
    out = [r for r in rows if r[1] != "acc"]
    samples = streams(rows)["acc"]
    for (t, v), m in zip(samples, moving_average(samples, 1.0)):
        out.append((t, "acc", [mi + factor * (vi - mi) for vi, mi in zip(v, m)]))
    return out


def noisy(rows, seed):
    r = random.Random(seed)
    sigma = {"acc": 0.1, "gyr": 0.01}
    return [(t, k, [x + r.gauss(0, sigma[k]) for x in v] if k in sigma else v) for t, k, v in rows]


def versions(rows):
    yield "original", rows
    for seed in (1, 2, 3):
        yield f"rotated{seed}", rotated(rows, rotation(seed))
    for rate in (25, 50, 100, 200):
        yield f"{rate}Hz", resampled(rows, rate)
    yield "motion×0.7", scaled(rows, 0.7)
    yield "motion×1.3", scaled(rows, 1.3)
    yield "noise", noisy(rows, 7)
    if any(k == "gyr" for _, k, _ in rows):
        yield "no gyroscope", [r for r in rows if r[1] != "gyr"]


def rhythmic_windows(step_times, seconds=20.0):
    """Spans of ≥ `seconds` whose every interval is within ±25 % of their median: [first, last]."""
    spans, start = [], 0
    times = sorted(step_times)
    for end in range(1, len(times) + 1):
        run = times[start:end]
        intervals = sorted(b - a for a, b in zip(run, run[1:]))
        if intervals:
            median = intervals[len(intervals) // 2]
            if any(abs(i - median) > 0.25 * median for i in intervals) or intervals[-1] > 2.0:
                start = end - 1
                continue
        if run and run[-1] - run[0] >= seconds:
            spans.append((run[0], run[-1]))
            start += 1
    return spans


def windows_under(step_times, credited, windows, share=0.9, margin=0.3):
    """The rhythmic `windows` (from `rhythmic_windows`) credited fewer than `share` of their truth
    steps, counting credited steps up to `margin` s beyond each end: (first, last, got, true)."""
    low = []
    for first, last in windows:
        true = sum(1 for t in step_times if first <= t <= last)
        got = sum(1 for t in credited if first - margin <= t <= last + margin)
        if got < share * true:
            low.append((first, last, got, true))
    return low


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--datasets", required=True, type=pathlib.Path)
    parser.add_argument("--out", default="/tmp/robustness", type=pathlib.Path)
    parser.add_argument("--trials", nargs="*", default=DEFAULT_TRIALS)
    args = parser.parse_args()
    eval_dir = args.datasets.resolve().parent / "eval"
    print("| trial | truth | original | rotated | 25 / 50 / 100 / 200 Hz | motion ×0.7 / ×1.3 | noise | no gyroscope "
          "| spread | worst error | rhythmic 20 s windows under 90 % |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failures = 0
    for trial in args.trials:
        source = args.datasets / f"{trial}.csv.gz"
        label = json.loads((args.datasets / f"{trial}.json").read_text())
        header, rows = read(source)
        name = pathlib.Path(trial).name
        counts, low_windows = {}, set()
        windows = rhythmic_windows(label.get("step_times", []))
        for version, data in versions(rows):
            folder = args.out / name / version
            folder.mkdir(parents=True, exist_ok=True)
            recording = folder / f"{name}.csv.gz"
            write(recording, header, data)
            (folder / f"{name}.json").write_text(json.dumps(label))
            done = subprocess.run([*args.motionctl.split(), "replay", str(recording), "--out", str(folder / "out" / name)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"{trial} {version}: replay failed: {done.stderr[-800:]}")
            report = folder / "score.json"
            subprocess.run([sys.executable, str(eval_dir / "score_steps.py"), "--dataset", str(folder),
                            "--outputs", str(folder / "out"), "--json", str(report)], capture_output=True, check=True)
            row = json.loads(report.read_text())["trials"][0]
            counts[version] = row["counted"]
            credited = [float(t) for t in (folder / "out" / name / "steps.csv").read_text().split()[1:]]
            for first, last, got, true in windows_under(label.get("step_times", []), credited, windows):
                low_windows.add((version, round(first, 1), round(last, 1), got, true))
        truth = json.loads(report.read_text())["trials"][0]["true"]
        spread = (max(counts.values()) - min(counts.values())) / truth * 100
        worst = max(abs(c - truth) / truth * 100 for c in counts.values())
        failures += spread > 2 or worst > 2 or bool(low_windows)
        c = lambda k: str(counts.get(k, "–"))
        print(f"| {name} | {truth} | {c('original')} | {c('rotated1')} / {c('rotated2')} / {c('rotated3')} "
              f"| {c('25Hz')} / {c('50Hz')} / {c('100Hz')} / {c('200Hz')} | {c('motion×0.7')} / {c('motion×1.3')} "
              f"| {c('noise')} | {c('no gyroscope')} | {spread:.1f} % | {worst:.1f} % "
              f"| {len(low_windows)} of {len(windows) * len(counts)}"
              + (f": {sorted(low_windows)[:3]}" if low_windows else "") + " |")
    print(f"\n{failures} of {len(args.trials)} trials outside the bounds (2 % spread and error, no rhythmic window under 90 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
