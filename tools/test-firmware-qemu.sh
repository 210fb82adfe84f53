#!/usr/bin/env bash
# The fixed-point pipeline as sensor-hub firmware (issue 11, "Firmware that runs"): FixedPoint
# and MotionAlgorithms built as Embedded Swift for Cortex-M, linked with Debian's
# gcc-arm-none-eabi and newlib (tools/firmware/), run under qemu-system-arm, and compared byte
# for byte with the same replay built for Linux.
#
# The replay (tools/firmware/Replay.swift): a bundled walk (Oxford, pocket, 14 s) through the
# pedometer's StepDetector, a bundled rotation (BROAD trial 01, 6 s, the device still) through
# the 9D FixedPointAttitudeFilter, both through the motion-activity stage (ActivityClassifier
# fed as MotionEngine's ActivityStage feeds it: the step detector's isStepping, a
# CadenceTracker); every step, pause and resume, every activity update (flags, confidence,
# start, time), and the raw Q32.32 attitude every 50 samples. The images:
#   armv6m-none-none-eabi  on QEMU's micro:bit, a Cortex-M0 (ARMv6-M: QEMU faults on any
#                          ARMv7-M instruction, so this proves the code is v6-M; 256 KB flash,
#                          16 KB RAM, like an RP2040's core)
#   armv7em-none-none-eabi on QEMU's MPS2 AN386, a Cortex-M4 (soft float)
#   aarch64-none-none-elf  on QEMU's virt with a Cortex-A53 (issue 21: a Raspberry Pi Zero 2 W's
#                          and Pi 3's core), run with -icount: the PMU's instructions-retired
#                          counter is then exact, and the image prints each stage's instructions
#                          per sample (tools/firmware/start-aarch64.c)
# Output and exit status go through semihosting. Also checked: one stage alone (steps, fusion,
# activity), no heap allocator in any image. Prints flash, RAM and peak stack (painted stack)
# per image, the issue's goal: fusion + pedometer + activity (the full image) under 48 KB
# flash and 8 KB RAM on armv6m, and the AArch64 instructions per sample per stage.
# Needs (Debian 12): gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm (which has
# qemu-system-aarch64 too) picolibc-aarch64-linux-gnu python3, and Swift (with clang and ld.lld).
# Usage: tools/test-firmware-qemu.sh
set -uo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work"
# shellcheck source=tools/checks.sh
source tools/checks.sh  # the working directory is the repository root (cd above)
for candidate in "${SWIFT_BIN:-}" /opt/swift/usr/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/swiftc" ]; then PATH="$candidate:$PATH"; fi
done
export PATH
out="$work/firmware"
start=$SECONDS

check "build: the host reference and the armv6m, armv7em and aarch64 images (Embedded Swift, zero warnings)" \
    tools/firmware/build.sh "$out"

host_replays() {
    "$out/host/replay-host" >"$work/host.txt" || return 1
    python3 - "$work/host.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "ocm-firmware-replay 1" and lines[-1] == "end", (lines[0], lines[-1])
walk = [l for l in lines if l.startswith("walk samples")][0].split()
assert int(walk[2]) > 5000 and 14 <= int(walk[4]) <= 24, walk       # ~18 steps in 14 s of walking
steps = [int(l.split()[1]) for l in lines if l.startswith("step ")]
assert len(steps) == int(walk[4]) and steps == sorted(steps), steps
activity = [list(map(int, l.split()[1:])) for l in lines if l.startswith("activity ") and "updates" not in l]
walking, stationary, unknown = 2, 1, 32                               # MotionActivityFlags
flags = [a[0] for a in activity]
assert flags.count(unknown) == 2 and walking in flags and stationary in flags, activity
assert all(start <= at for _, _, start, at in activity), activity
qs = [list(map(int, l.split()[2:])) for l in lines if l.startswith("q ")]
assert len(qs) > 30, len(qs)
for q in qs:                                                          # unit quaternions, Q32.32
    norm = sum((v / 2**32) ** 2 for v in q)
    assert abs(norm - 1) < 1e-6, (q, norm)
PY
}
check "host reference: steps at a walking rhythm, walking and stationary activity, unit attitude quaternions" host_replays

# run ELF MACHINE OUTPUT: the image under QEMU (semihosting to OUTPUT), 60 s at most. On virt:
# a Cortex-A53, and -icount shift=0 (one instruction per virtual ns), under which QEMU counts the
# PMU's INST_RETIRED event exactly.
run() {
    local qemu=(qemu-system-arm -M "$2")
    [ "$2" = virt ] && qemu=(qemu-system-aarch64 -M virt -cpu cortex-a53 -icount shift=0)
    timeout 60 "${qemu[@]}" -nographic -monitor none -serial none \
        -chardev file,id=semihost,path="$3" -semihosting-config enable=on,target=native,chardev=semihost \
        -kernel "$1"
}

# The host's output for one stage alone.
grep -v -E '^(q|q6d|bias|heading|magnetometer|rotation|activity) ' "$work/host.txt" >"$work/host-steps.txt"
grep -v -E '^(step|pause|resume|walk|activity) ' "$work/host.txt" >"$work/host-fusion.txt"
grep -E '^(ocm-firmware-replay|activity|end)' "$work/host.txt" >"$work/host-activity.txt"

# identical TARGET MACHINE IMAGE EXPECTED: runs it; its output (less the "#" lines: stack
# figures) must be EXPECTED byte for byte.
identical() {
    local log="$work/$1-$3.txt"
    run "$out/$1/$3.elf" "$2" "$log" || { echo "QEMU or the image failed (status $?)"; tail -5 "$log"; return 1; }
    grep -v '^#' "$log" >"$log.data"
    cmp "$log.data" "$4" || { diff "$log.data" "$4" | head -10; return 1; }
}

no_heap() {
    local image nm symbols
    for image in "$out"/armv6m/*.elf "$out"/armv7em/*.elf "$out"/aarch64/*.elf; do
        nm=arm-none-eabi-nm
        case "$image" in "$out"/aarch64/*) nm=aarch64-linux-gnu-nm ;; esac
        # A symbol table that cannot be read must not pass for one without an allocator.
        symbols=$("$nm" "$image") || { echo "$nm could not read $image"; return 1; }
        if grep -q -w -E 'posix_memalign|malloc|_sbrk|sbrk' <<<"$symbols"; then echo "$image has a heap allocator"; return 1; fi
    done
}

for target in armv6m armv7em aarch64; do
    case "$target" in
        armv6m) machine=microbit; core="micro:bit, Cortex-M0" ;;
        armv7em) machine=mps2-an386; core="MPS2 AN386, Cortex-M4" ;;
        aarch64) machine=virt; core="virt, Cortex-A53" ;;
    esac
    check "$target image on QEMU $machine ($core): bit-identical to the Linux build" identical "$target" "$machine" replay "$work/host.txt"
    check "$target steps alone: bit-identical" identical "$target" "$machine" replay-steps "$work/host-steps.txt"
    check "$target fusion alone: bit-identical" identical "$target" "$machine" replay-fusion "$work/host-fusion.txt"
    check "$target activity alone: bit-identical" identical "$target" "$machine" replay-activity "$work/host-activity.txt"
done
check "no heap allocator in any image (nothing allocates)" no_heap

# Flash and RAM per image: text/data/bss from arm-none-eabi-size (aarch64-linux-gnu-size: the
# same ELF sections); the bundled recording is constant data in flash, counted apart; RAM used =
# data + bss without the stack reservation + the peak stack (the painted stack's deepest word
# written). The AArch64 image runs from RAM (QEMU loads it there, as a Pi's firmware would):
# its "code" is what it loads less the recording.
echo "flash and RAM (bytes; code = text + data - the bundled recording):"
printf '  %-8s %-15s %8s %6s %6s %10s %8s %11s %10s\n' target image text data bss recording code "peak stack" "RAM used"
for target in armv6m armv7em aarch64; do
    binutils=arm-none-eabi
    [ "$target" = aarch64 ] && binutils=aarch64-linux-gnu
    for image in replay replay-steps replay-fusion replay-activity; do
        elf="$out/$target/$image.elf" log="$work/$target-$image.txt"
        [ -f "$elf" ] && [ -f "$log" ] || continue
        read -r text data bss _ < <("$binutils-size" "$elf" | tail -1)
        recording=0
        while read -r _ size _ name; do
            case "$name" in ocm_walk|ocm_walk_count|ocm_rotation|ocm_rotation_count) recording=$((recording + 16#$size)) ;; esac
        done < <("$binutils-nm" -S "$elf")
        stack=$(sed -n 's/^# stack peak \([0-9]*\) of \([0-9]*\) bytes$/\1 \2/p' "$log")
        peak=${stack% *} reserved=${stack#* }
        [ -n "$peak" ] || continue
        code=$((text + data - recording)) ram=$((data + bss - reserved + peak))
        printf '  %-8s %-15s %8d %6d %6d %10d %8d %11d %10d\n' "$target" "$image" "$text" "$data" "$bss" "$recording" \
            "$code" "$peak" "$ram"
        if [ "$target/$image" = armv6m/replay ]; then goal_code=$code goal_ram=$ram; fi
    done
done
# The issue's goal, read off the full armv6m image (fusion + pedometer + activity, with the
# start-up code, newlib's memcpy/memset and libgcc's soft double and 64-bit division).
versus() {  # versus USED LIMIT: "under by N" or "OVER by N"
    if (($1 <= $2)); then echo "under by $(($2 - $1))"; else echo "OVER by $(($1 - $2))"; fi
}
if [ -n "${goal_code:-}" ]; then
    echo "goal, fusion + pedometer + activity on armv6m: flash $goal_code of 49152 bytes ($(versus "$goal_code" 49152)), RAM $goal_ram of 8192 bytes ($(versus "$goal_ram" 8192))"
fi

# AArch64 instructions per sample per stage ("# instructions STAGE TOTAL SAMPLES OVERHEAD": the
# bracket's own instructions, already taken off each sample's count); every stage its image ran
# must have been counted. The table goes to instructions.txt, printed after the check.
instructions() {
    local image log stage total samples overhead expected
    : >"$work/instructions.txt"
    for image in replay replay-steps replay-fusion replay-activity; do
        log="$work/aarch64-$image.txt"
        [ -f "$log" ] || return 1
        case "$image" in
            replay) expected="fusion activity" ;;
            replay-steps) expected=steps ;;
            replay-fusion) expected=fusion ;;
            replay-activity) expected=activity ;;
        esac
        for stage in $expected; do
            total='' samples='' overhead=''  # not the previous stage's, when this one has no line
            read -r total samples overhead < <(sed -n "s/^# instructions $stage \([0-9]*\) \([0-9]*\) \([0-9]*\)\$/\1 \2 \3/p" "$log")
            if [ -z "${samples:-}" ] || ((samples == 0 || total < 100 * samples)); then
                echo "$image: no plausible instruction count for $stage (${total:-none} over ${samples:-none} samples)"
                return 1
            fi
            awk -v image="$image" -v stage="$stage" -v total="$total" -v samples="$samples" -v overhead="$overhead" 'BEGIN {
                printf "  %-15s %-8s %8.1f  (%d instructions over %d samples, the bracket'"'"'s %d taken off each)\n",
                    image, stage, total / samples, total, samples, overhead }' >>"$work/instructions.txt"
        done
    done
}
check "aarch64: instruction counts per sample for each stage" instructions
echo "AArch64 (Cortex-A53) instructions per sample, counted by the core under -icount:"
cat "$work/instructions.txt"
echo "run time: $((SECONDS - start)) s"
finish "firmware under QEMU"
