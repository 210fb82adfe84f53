#!/usr/bin/env bash
# The Cortex-M0 and M4 columns of docs/firmware.md's instruction table. QEMU's Cortex-M cores
# have no instruction counter (no PMU; QEMU does not model the DWT's cycle counter), so the
# images are built with the replay's brackets around each stage's call (OCM_COUNT_INSTRUCTIONS=1:
# Replay.swift's -D COUNT_INSTRUCTIONS, empty ocm_count_begin / ocm_count_end in startup.c) and
# run with QEMU tracing every instruction (-singlestep -d exec,nochain); brackets.awk counts
# the instructions between the brackets. The method is checked on the AArch64 images first:
# their traces must count what their PMU counts (the test's figures).
# Slow (every instruction logged: 18–20 minutes on a shared 2-core machine), so not in the tests.
# Needs what build.sh needs for armv6m, armv7em and aarch64.
# Usage: tools/firmware/count-cortex-m.sh [OUT]   (default /tmp/ocm-firmware-count)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-/tmp/ocm-firmware-count}"
for candidate in "${SWIFT_BIN:-}" /opt/swift/usr/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/swiftc" ]; then PATH="$candidate:$PATH"; fi
done
OCM_COUNT_INSTRUCTIONS=1 "$here/build.sh" "$out" armv6m armv7em aarch64

# trace TARGET IMAGE: the image under QEMU, every instruction traced, into brackets.awk; prints
# each bracket's instructions, one a line (the image's own output in OUT/TARGET/IMAGE.txt).
trace() {
    local qemu
    case "$1" in
        armv6m) qemu=(qemu-system-arm -M microbit) ;;
        armv7em) qemu=(qemu-system-arm -M mps2-an386) ;;
        aarch64) qemu=(qemu-system-aarch64 -M virt -cpu cortex-a53 -icount shift=0) ;;
    esac
    # -singlestep: one instruction per translated block, so one trace line per instruction.
    "${qemu[@]}" -nographic -monitor none -serial none -singlestep -d exec,nochain -D /dev/stdout \
        -chardev file,id=semihost,path="$out/$1/$2.txt" -semihosting-config enable=on,target=native,chardev=semihost \
        -kernel "$out/$1/$2.elf" | awk -f "$here/brackets.awk"
}

# finished TARGET IMAGE: the image ran its replay to the end (the trace's pipe hides QEMU's status).
finished() {
    grep -q '^end$' "$out/$1/$2.txt" && ! grep -q FAULT "$out/$1/$2.txt" ||
        { echo "$1 $2 did not finish its replay:" >&2; tail -3 "$out/$1/$2.txt" >&2; exit 1; }
}

# sum SKIP: the brackets after the first SKIP (set-up: calibration, the counter's check), less
# the first bracket's count (an empty bracket's: the call and the stage passed) from each:
# "TOTAL SAMPLES".
sum() { awk -v skip="$1" 'NR == 1 { own = $1 } NR > skip { total += $1 - own; n++ } END { print total + 0, n + 0 }'; }

# The method, checked: the AArch64 stage-alone images' traces against their PMU counts (its
# start-aarch64.c brackets 4 empty calibrations and its counter check first). Fusion and
# activity write nothing from inside a bracket: equal. The steps' lines are written from inside
# (the step detector's callback), and the two leave the writes out a little differently (the
# PMU from its first read in ocm_write to its last, the trace all of ocm_write): within 0.1
# instruction per sample.
for stage in steps fusion activity; do
    read -r total samples < <(trace aarch64 "replay-$stage" | sum 5)
    finished aarch64 "replay-$stage"
    pmu='' pmu_samples=''
    read -r pmu pmu_samples < <(sed -n "s/^# instructions $stage \([0-9]*\) \([0-9]*\) [0-9]*$/\1 \2/p" "$out/aarch64/replay-$stage.txt") || true  # none: reported below
    slack=0
    [ "$stage" = steps ] && slack=$((samples / 10))
    difference=$((total - ${pmu:-0}))
    if [ "$samples" != "${pmu_samples:-}" ] || ((difference > slack || -difference > slack)); then
        echo "aarch64 $stage: the trace counts $total over $samples samples, the PMU ${pmu:-nothing} over ${pmu_samples:-no} samples: the trace cannot be trusted" >&2
        exit 1
    fi
    echo "aarch64 $stage: the trace counts $total instructions over $samples samples, the PMU $pmu"
done

echo "instructions per sample (QEMU's instruction trace):"
for target in armv6m armv7em; do
    for stage in steps fusion activity; do
        read -r total samples < <(trace "$target" "replay-$stage" | sum 1)
        finished "$target" "replay-$stage"
        ((samples > 0)) || { echo "$target $stage: no bracket traced" >&2; exit 1; }
        awk -v target="$target" -v stage="$stage" -v total="$total" -v samples="$samples" 'BEGIN {
            printf "  %-8s %-8s %8.1f  (%d instructions over %d samples)\n", target, stage, total / samples, total, samples }'
    done
done
