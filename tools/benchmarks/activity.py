#!/usr/bin/env python3
"""Motion activity (issue 7) on every data set, in one table.

    python3 tools/benchmarks/activity.py --motionctl .build/release/motionctl \
        --datasets ../shared/datasets [--out /tmp/activity-bench] [--jobs 2] [--only NAME ...] [--all-pedestrian]

Replays each data set with `motionctl replay` (../shared/eval/replay_dataset.py), scores its
`activity.csv` with ../shared/eval/score_activity.py and prints per data set: accuracy,
balanced accuracy, per-class recall, the confusion matrix (seconds), median walking-detection
latency (all episodes, and cold starts), missed walks, false automotive/cycling calls, and ns
per sample (`motionctl bench-activity` on a few trials, recording in memory, I/O excluded;
readings of every sensor counted).

Labels: `uci_hapt_raw` and `broad` carry activity segments. `oxford_step_counter` and
`ipol_gait_steps` carry only step truth, so their walking segments are derived here: every run
of ≥ 4 true steps with gaps ≤ 2.5 s is `walking` from its first to its last step (nothing else is
scored there). The derived labels go into OUT/NAME.labels/ beside links to the recordings.

`phone_attitude` labels every trial as a whole (walking, or running for Running*): hand, pocket,
texting, phoning, AR and swinging carries. `driver_behavior_car` (windshield mount, whole trip
automotive) and `byke_cycling_handlebar` (handlebar, acc only, cycling while moving) score the
vehicle calls; their false steps are reported too (../shared/eval/score_false_steps.py, for
information: the step detector decides them).

`--all-pedestrian` also replays the pedestrian sets `weallwalk`, `mobgap_lab` (walking derived
from their step times like Oxford's), `brajdic_handheld` (its scored window is one walk) and
`floors_stairs_lift_bangle`, and counts automotive/cycling calls there: they must be 0.

Per set the worst trial (lowest per-trial balanced accuracy, from the scorer's per-trial table)
and the mean over subjects of their per-trial balanced accuracy (with the worst subject: the
leave-one-subject-out view, every person weighted equally) are printed beside the pooled figures.
"""
import argparse, csv, json, os, pathlib, statistics, subprocess, sys

SCORED = ["uci_hapt_raw", "oxford_step_counter", "ipol_gait_steps", "broad", "phone_attitude",
          "driver_behavior_car", "byke_cycling_handlebar"]
PEDESTRIAN = ["weallwalk", "mobgap_lab", "brajdic_handheld", "floors_stairs_lift_bangle"]
DERIVED = {"oxford_step_counter", "ipol_gait_steps", "weallwalk", "mobgap_lab"}
WINDOW_WALK = {"brajdic_handheld"}  # no step times: the scored window is one walk
VEHICLE = {"driver_behavior_car", "byke_cycling_handlebar"}
SIDECARS = (".truth.csv.gz", ".phone.csv.gz")


def summary(output):
    for line in reversed(output.splitlines()):
        if line.startswith("SUMMARY "):
            return json.loads(line[len("SUMMARY "):])
    raise RuntimeError("scorer printed no SUMMARY line:\n" + output[-2000:])


def walking_segments(step_times, max_gap=2.5, min_steps=4):
    segments, run = [], []
    for t in sorted(step_times):
        if run and t - run[-1] > max_gap:
            if len(run) >= min_steps:
                segments.append({"start": run[0], "end": run[-1], "label": "walking"})
            run = []
        run.append(t)
    if len(run) >= min_steps:
        segments.append({"start": run[0], "end": run[-1], "label": "walking"})
    return segments


def derived_labels(dataset, folder):
    folder.mkdir(parents=True, exist_ok=True)
    for recording in sorted(dataset.glob("*.csv.gz")):
        if recording.name.endswith(SIDECARS):
            continue
        name = recording.name[: -len(".csv.gz")]
        labels = json.loads((dataset / (name + ".json")).read_text())
        if dataset.name in WINDOW_WALK:
            labels["activity"] = [{"start": labels["score"]["start"], "end": labels["score"]["end"], "label": "walking"}]
        else:
            labels["activity"] = walking_segments(labels.get("step_times", []))
        (folder / (name + ".json")).write_text(json.dumps(labels))
        link = folder / recording.name
        if not link.exists():
            link.symlink_to(recording.resolve())
    return folder


def replay(eval_dir, motionctl, dataset, out, jobs):
    done = subprocess.run([sys.executable, str(eval_dir / "replay_dataset.py"), "--motionctl", motionctl,
                           "--dataset", str(dataset), "--out", str(out), "--jobs", jobs], capture_output=True, text=True)
    if done.returncode != 0:
        # Scored anyway: the scorer counts a trial without activity.csv as FAILED, never skipped.
        failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
        print(f"warning: {dataset.name}: {len(failed)} replays failed: {', '.join(f.split()[1] for f in failed)}", file=sys.stderr)


def trial_scores(report):
    """{name: balanced accuracy} from the scorer's per-trial table (trials without a score left out)."""
    scores = {}
    for line in report.splitlines():
        parts = line.split()
        if len(parts) >= 8 and (parts[7] == "ok" or parts[7].startswith("FAILED")):
            try:
                bal = float(parts[3])
            except ValueError:
                continue
            if bal == bal:
                scores[parts[0]] = bal
    return scores


def worst_trial(report):
    """(name, balanced accuracy) of the trial with the lowest balanced accuracy in the scorer's table."""
    scores = trial_scores(report)
    return min(scores.items(), key=lambda item: item[1]) if scores else None


def per_subject(report, dataset):
    """The mean over subjects of each subject's mean per-trial balanced accuracy, and the worst
    subject: the leave-one-subject-out view (no activity constant is chosen from data here, so
    each held-out subject's figure is simply its own), every person weighted equally. A
    subject is json `subject` (`trip`, `ride`), else the trial itself (BROAD: one person)."""
    by_subject = {}
    for name, bal in trial_scores(report).items():
        label = json.loads((dataset / f"{name}.json").read_text()) if (dataset / f"{name}.json").exists() else {}
        subject = next((str(label[k]) for k in ("subject", "trip", "ride") if k in label), name)
        by_subject.setdefault(subject, []).append(bal)
    if not by_subject:
        return None
    means = {subject: statistics.fmean(values) for subject, values in by_subject.items()}
    worst = min(means.items(), key=lambda item: item[1])
    return f"{statistics.fmean(means.values()):.3f} ({len(means)}; worst {worst[0]} {worst[1]:.3f})"


def false_steps(eval_dir, dataset, out):
    done = subprocess.run([sys.executable, str(eval_dir / "score_false_steps.py"), "--dataset", str(dataset), "--outputs", str(out)],
                          capture_output=True, text=True)
    try:
        s = summary(done.stdout)
    except RuntimeError:
        return None
    return f"{s['false_steps']} ({s['false_steps_per_min']:.1f}/min)"


def ns_per_sample(motionctl, dataset, trials=3):
    recordings = sorted(p for p in dataset.glob("*.csv.gz") if not p.name.endswith(SIDECARS))
    step = max(1, len(recordings) // trials)
    values = []
    for recording in recordings[::step][:trials]:
        out = subprocess.run([motionctl, "bench-activity", str(recording), "--seconds", "0.3"], capture_output=True, text=True, check=True).stdout
        values.append(float(out.split("ns per sample:")[1].split()[0]))
    return statistics.median(values)


def vehicle_calls(out):
    calls = 0
    for path in sorted(out.glob("*/activity.csv")):
        previous = None
        with open(path) as f:
            for row in csv.DictReader(f):
                vehicle = row["automotive"] == "1" or row["cycling"] == "1"
                if vehicle and not previous:
                    calls += 1
                previous = vehicle
    return calls


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--datasets", required=True, type=pathlib.Path)
    parser.add_argument("--out", default="/tmp/activity-bench", type=pathlib.Path)
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--only", nargs="*", help="data set names (default: the four scored ones)")
    parser.add_argument("--all-pedestrian", action="store_true", help="also score the other pedestrian sets and count vehicle calls there")
    parser.add_argument("--no-timing", action="store_true", help="skip the ns/sample measurement")
    args = parser.parse_args()
    eval_dir = args.datasets.resolve().parent / "eval"
    rows, confusions = [], []
    names = SCORED + ([n for n in PEDESTRIAN if n != "floors_stairs_lift_bangle"] if args.all_pedestrian else [])
    for name in names:
        dataset = args.datasets / name
        if not dataset.is_dir() or (args.only and name not in args.only):
            continue
        out = args.out / name
        replay(eval_dir, args.motionctl, dataset, out, args.jobs)
        derived = name in DERIVED or name in WINDOW_WALK
        labels = derived_labels(dataset, args.out / (name + ".labels")) if derived else dataset
        scored = subprocess.run([sys.executable, str(eval_dir / "score_activity.py"), "--dataset", str(labels), "--outputs", str(out)],
                                capture_output=True, text=True)
        (args.out / (name + ".report.txt")).write_text(scored.stdout + scored.stderr)
        s = summary(scored.stdout)
        worst = worst_trial(scored.stdout)
        rows.append({"data set": name, "trials": s["trials"], "failed": s["failed"], "accuracy": s["accuracy"],
                     "balanced accuracy": s["balanced_accuracy"],
                     "recall": ", ".join(f"{k} {v:.3f}" for k, v in s["per_class_recall"].items()),
                     "walk latency s": s["median_walking_latency_s"], "cold latency s": s["median_cold_walking_latency_s"],
                     "walks/missed": f"{s['walking_episodes']}/{s['walking_missed']}",
                     "false vehicle": s["false_vehicle_calls"] if name not in VEHICLE else None,
                     "worst trial": None if worst is None else f"{worst[0]} {worst[1]:.3f}",
                     "per subject": per_subject(scored.stdout, dataset),
                     "false steps": false_steps(eval_dir, dataset, out) if name in VEHICLE else None,
                     "ns/sample": None if args.no_timing else round(ns_per_sample(args.motionctl, dataset), 1)})
        confusions.append((name, s["confusion_s"]))
    if args.all_pedestrian:
        # Vehicle calls anywhere in a pedestrian trial (labelled or not), counted from activity.csv.
        for name in ["uci_hapt_raw", "oxford_step_counter", "ipol_gait_steps", "broad", "phone_attitude"] + PEDESTRIAN:
            dataset = args.datasets / name
            if not dataset.is_dir() or (args.only and name not in args.only):
                continue
            out = args.out / name
            if not out.is_dir():
                replay(eval_dir, args.motionctl, dataset, out, args.jobs)
            row = next((r for r in rows if r["data set"] == name), None)
            if row is None:
                row = {"data set": name}
                rows.append(row)
            row["vehicle calls (whole trials)"] = vehicle_calls(out)
    columns = ["data set", "trials", "failed", "accuracy", "balanced accuracy", "per subject", "worst trial", "walk latency s", "cold latency s",
               "walks/missed", "false vehicle", "vehicle calls (whole trials)", "false steps", "ns/sample", "recall"]
    cell = lambda v: "–" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(cell(row.get(c)) for c in columns) + " |")
    predicted = ["walking", "running", "automotive", "cycling", "stationary", "unknown", "none", "failed"]
    for name, confusion in confusions:
        print(f"\n{name}: confusion (seconds; rows = truth, columns = predicted)")
        print(f"{'':12s}" + "".join(f"{p:>11s}" for p in predicted))
        for truth, row in confusion.items():
            print(f"{truth:12s}" + "".join(f"{row.get(p, 0.0):11.1f}" for p in predicted))
    print(f"\nper-trial reports: {args.out}/NAME.report.txt")


if __name__ == "__main__":
    main()
