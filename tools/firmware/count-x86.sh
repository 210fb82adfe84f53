#!/usr/bin/env bash
# The x86-64 column of docs/firmware.md's instruction table: the replay the AArch64 image runs,
# built for the host (build.sh's host reference, and each stage alone: -D STEPS_ONLY,
# FUSION_ONLY, ACTIVITY_ONLY), run under valgrind's callgrind. Per stage: the inclusive
# instructions of the calls the AArch64 image brackets (FixedPointAttitudeFilter's two updates,
# StepDetector.update, ActivityTracker.update) over the samples. Not part of the tests (valgrind
# is not among their packages): run it when the stages change, beside the test's AArch64 counts.
# Needs valgrind (apt-get install valgrind) and what build.sh needs for the host.
# Usage: tools/firmware/count-x86.sh [OUT]   (OUT as build.sh's, default /tmp/ocm-firmware)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-/tmp/ocm-firmware}"
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
    { echo "count-x86.sh needs valgrind: apt-get install valgrind" >&2; exit 1; }
for candidate in "${SWIFT_BIN:-}" /opt/swift/usr/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/swiftc" ]; then PATH="$candidate:$PATH"; fi
done
"$here/build.sh" "$out" host
dir="$out/host"
cd "$root"
for only in STEPS FUSION ACTIVITY; do
    swiftc -O -wmo -parse-as-library -D "${only}_ONLY" -module-name Replay -I "$dir" -import-bridging-header "$here/replay.h" \
        -c "$here/Replay.swift" -o "$dir/Replay-$only.o"
    swiftc "$dir/host.o" "$dir/recording.o" "$dir/Replay-$only.o" "$dir/FixedPoint.o" "$dir/MotionAlgorithms.o" \
        -lm -o "$dir/replay-host-$only"
done
# The samples: the recordings' (the host reference prints them; a stage alone may not).
"$dir/replay-host" >"$dir/replay-host.txt"
walk=$(sed -n 's/^walk samples \([0-9]*\) .*/\1/p' "$dir/replay-host.txt")
rotation=$(sed -n 's/^rotation samples \([0-9]*\)$/\1/p' "$dir/replay-host.txt")
echo "x86-64 instructions per sample (callgrind, inclusive, of the calls the AArch64 image counts):"
for image in replay-host replay-host-STEPS replay-host-FUSION replay-host-ACTIVITY; do
    valgrind --tool=callgrind --callgrind-out-file="$dir/$image.callgrind" "$dir/$image" >"$dir/$image.txt" 2>"$dir/$image.valgrind" ||
        { cat "$dir/$image.valgrind" >&2; exit 1; }
    callgrind_annotate --inclusive=yes --threshold=100 "$dir/$image.callgrind" >"$dir/$image.annotated"
    python3 - "$image" "$dir/$image.annotated" "$walk" "$rotation" <<'PY'
import re, sys
image, annotated = sys.argv[1:3]
walk, rotation = int(sys.argv[3]), int(sys.argv[4])
# The mangled names of the bracketed calls (their specializations summed: one per image).
calls = {
    "fusion": (r"\$s16MotionAlgorithms24FixedPointAttitudeFilterV6update(9gyroscope|12magnetometer)", rotation),
    "steps": (r"\$s16MotionAlgorithms12StepDetectorV6update12acceleration", walk),
    "activity": (r"\$s16MotionAlgorithms15ActivityTrackerV6update12acceleration", walk + rotation),
}
stages = {"replay-host": ["fusion", "activity"], "replay-host-STEPS": ["steps"],
          "replay-host-FUSION": ["fusion"], "replay-host-ACTIVITY": ["activity"]}[image]
for stage in stages:
    pattern, samples = calls[stage]
    total = sum(int(m.group(1).replace(",", "")) for line in open(annotated)
                if (m := re.match(r"\s*([\d,]+) \(.*?\)\s+\?\?\?:" + pattern, line)))
    if total < 100 * samples:
        sys.exit(f"{image}: no plausible count for {stage} ({total} over {samples} samples)")
    print(f"  {image:21} {stage:8} {total / samples:8.1f}  ({total} instructions over {samples} samples)")
PY
done
