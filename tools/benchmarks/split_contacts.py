#!/usr/bin/env python3
"""Step truth that counts one foot contact twice: how much of a data set's step error it makes.

    python3 tools/benchmarks/loso.py --motionctl .build/release/motionctl --datasets ../shared/datasets --out /tmp/loso
    python3 tools/benchmarks/split_contacts.py --dataset ../shared/datasets/oxford_step_counter \
        --scores /tmp/loso/built/oxford_step_counter/score_steps.json

Oxford's truth is a foot-worn pressure sensor read at ~10 Hz, a step for every 0→1 transition
of either foot. A contact that bounces (the pressure dips under the threshold for one or two
readings) is two transitions. Such a pair is told by its timing: an interval under 0.3 s (a
cadence over 200 steps a minute, beyond any walk) that, added to the interval before or after
it, makes one step interval of the trial (its median, ±20 %): 0.36 + 0.18 s where the walk
steps every 0.54 s. A short interval that does not sum so (a purse walk's 0.81 + 0.18 s, two
steps 0.5 s apart, each timed late and early by the 10 Hz reading) is left as two steps.

Prints, per trial with split contacts, the truth, the pairs, the truth with each pair counted
once and our count's error against both; then the mean and worst error over every trial both
ways. Nothing here changes a score: ../shared/eval scores against the labels as they are.
"""
import argparse, json, pathlib, sys

import numpy as np

SHORTEST_STEP = 0.3  # s
TOLERANCE = 0.2      # of the median interval


def split_contacts(times):
    """The number of step pairs in `times` (s, sorted) that are one contact counted twice."""
    intervals = np.diff(np.asarray(times, float))
    if len(intervals) < 2:
        return 0
    step = np.median(intervals)
    pairs, index = 0, 0
    while index < len(intervals):
        if intervals[index] < SHORTEST_STEP:
            before = intervals[index - 1] if index > 0 else np.inf
            after = intervals[index + 1] if index + 1 < len(intervals) else np.inf
            if min(abs(before + intervals[index] - step), abs(intervals[index] + after - step)) < TOLERANCE * step:
                pairs += 1
                index += 1  # the merged interval is spent
        index += 1
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", required=True, type=pathlib.Path, help="a data set's folder (labels: <trial>.json with step_times)")
    parser.add_argument("--scores", required=True, type=pathlib.Path, help="score_steps.json of ../shared/eval/score_steps.py for that set")
    args = parser.parse_args()
    try:
        trials = json.loads(args.scores.read_text())["trials"]
    except (OSError, ValueError, KeyError) as error:
        print(f"split_contacts: cannot read the scores {args.scores}: {error}. Run loso.py or pedometer.py first.", file=sys.stderr)
        return 1
    as_labelled, merged = [], []
    print("| trial | truth | split contacts | truth, each counted once | ours | error | error against it |")
    print("|---|---|---|---|---|---|---|")
    for trial in trials:
        label = args.dataset / f"{trial['trial']}.json"
        try:
            labels = json.loads(label.read_text())
            # The steps the scorer counts: those inside the scored span, where the label has one.
            span = labels.get("score") or {"start": -np.inf, "end": np.inf}
            times = [t for t in labels.get("step_times", []) if span["start"] <= t <= span["end"]]
        except (OSError, ValueError) as error:
            print(f"split_contacts: cannot read the label {label}: {error}", file=sys.stderr)
            return 1
        truth, counted = trial["true"], trial["counted"]
        pairs = split_contacts(times)
        error = 100 * (counted - truth) / truth
        corrected = 100 * (counted - (truth - pairs)) / (truth - pairs)
        as_labelled.append((abs(error), trial["trial"]))
        merged.append((abs(corrected), trial["trial"]))
        if pairs:
            print(f"| {trial['trial']} | {truth} | {pairs} | {truth - pairs} | {counted} | {error:+.1f} % | {corrected:+.1f} % |")
    for title, errors in (("as labelled", as_labelled), ("split contacts counted once", merged)):
        worst = max(errors)
        print(f"{title}: mean {np.mean([e for e, _ in errors]):.2f} % over {len(errors)} trials, worst {worst[1]} {worst[0]:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
