#!/usr/bin/env bash
# Builds the replay firmware and its host reference into OUT (default /tmp/ocm-firmware):
#   OUT/host/replay-host          Linux, the same Swift (FixedPoint, MotionAlgorithms, Replay.swift)
#   OUT/armv6m/replay.elf         Embedded Swift for armv6m-none-none-eabi, for the micro:bit (Cortex-M0)
#   OUT/armv7em/replay.elf        Embedded Swift for armv7em-none-none-eabi, for MPS2 AN386 (Cortex-M4)
#   OUT/aarch64/replay.elf        Embedded Swift for aarch64-none-none-elf, for QEMU virt's Cortex-A53
#                                 (a Raspberry Pi Zero 2 W's and Pi 3's core), counting instructions
# and beside each image replay-steps.elf, replay-fusion.elf and replay-activity.elf: one stage
# alone (its flash, RAM and stack), from the same modules.
# Needs swiftc (Swift 6.2+), clang (from the Swift toolchain), python3, and Debian's
# gcc-arm-none-eabi and libnewlib-arm-none-eabi, and for aarch64 ld.lld (from the Swift
# toolchain) and picolibc-aarch64-linux-gnu. Any Swift or C warning fails.
# Usage: tools/firmware/build.sh [OUT] [TARGET...]   (targets: host armv6m armv7em aarch64; default all)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-/tmp/ocm-firmware}"
shift || true
targets=("$@")
((${#targets[@]})) || targets=(host armv6m armv7em aarch64)
mkdir -p "$out"
cd "$root"
fixed_point=$(find Sources/FixedPoint -name '*.swift' | sort)
algorithms=$(find Sources/MotionAlgorithms -name '*.swift' | sort)

python3 "$here/make_recording.py" "$out/recording.c" >/dev/null

# swiftc, failing on any warning (its log: swiftc.log in the target's directory).
swift_compile() {
    local log="$dir/swiftc.log"
    swiftc "$@" >"$log" 2>&1 || { cat "$log"; return 1; }
    if grep -q "warning:" "$log"; then cat "$log"; return 1; fi
}

# The Swift modules for one target: FixedPoint, MotionAlgorithms, Replay (objects); then the
# replay of one stage alone (Replay-steps.o, Replay-fusion.o, Replay-activity.o) unless host.
swift_modules() {
    local dir="$1" target="$2"; shift 2
    swift_compile "$@" -module-name FixedPoint -emit-module -emit-module-path "$dir/FixedPoint.swiftmodule" \
        -c $fixed_point -o "$dir/FixedPoint.o"
    swift_compile "$@" -module-name MotionAlgorithms -I "$dir" -emit-module -emit-module-path "$dir/MotionAlgorithms.swiftmodule" \
        -c $algorithms -o "$dir/MotionAlgorithms.o"
    swift_compile "$@" -module-name Replay -I "$dir" -import-bridging-header "$here/replay.h" \
        -c "$here/Replay.swift" -o "$dir/Replay.o"
    [ "$target" = host ] && return
    swift_compile "$@" -D STEPS_ONLY -module-name Replay -I "$dir" -import-bridging-header "$here/replay.h" \
        -c "$here/Replay.swift" -o "$dir/Replay-steps.o"
    swift_compile "$@" -D FUSION_ONLY -module-name Replay -I "$dir" -import-bridging-header "$here/replay.h" \
        -c "$here/Replay.swift" -o "$dir/Replay-fusion.o"
    swift_compile "$@" -D ACTIVITY_ONLY -module-name Replay -I "$dir" -import-bridging-header "$here/replay.h" \
        -c "$here/Replay.swift" -o "$dir/Replay-activity.o"
}

# One target, into OUT/TARGET.
build_target() {
    local target="$1" dir="$out/$1" triple cpu memory image picolibc cc
    mkdir -p "$dir"
    case "$target" in
        host)
            swift_modules "$dir" host -O -wmo -parse-as-library
            clang -O2 -I "$here" -c "$here/host.c" -o "$dir/host.o"
            clang -O2 -I "$here" -c "$out/recording.c" -o "$dir/recording.o"
            swiftc "$dir/host.o" "$dir/recording.o" "$dir/Replay.o" "$dir/FixedPoint.o" "$dir/MotionAlgorithms.o" \
                -lm -o "$dir/replay-host"
            ;;
        armv6m|armv7em)
            if [ "$target" = armv6m ]; then
                triple=armv6m-none-none-eabi; cpu=cortex-m0; memory=microbit
            else
                triple=armv7em-none-none-eabi; cpu=cortex-m4; memory=mps2
            fi
            # The Cortex-M0's 48 KB: the step detector without the gyroscope's yaw swing (the
            # replays feed it no gyroscope, so their output is the same as the host's).
            local only=()
            [ "$target" = armv6m ] && only=(-D ACCELEROMETER_ONLY_STEPS)
            # OCM_COUNT_INSTRUCTIONS=1 (count-cortex-m.sh): the replay's brackets around each
            # stage's call, for counting its instructions in QEMU's trace.
            local count=() ccount=()
            [ -n "${OCM_COUNT_INSTRUCTIONS:-}" ] && count=(-D COUNT_INSTRUCTIONS) ccount=(-DCOUNT_INSTRUCTIONS)
            swift_modules "$dir" "$target" -enable-experimental-feature Embedded -target "$triple" -Osize -wmo -parse-as-library \
                -Xfrontend -function-sections -Xcc -mfloat-abi=soft "${only[@]}" "${count[@]}"
            gcc=(arm-none-eabi-gcc -mcpu="$cpu" -mthumb -mfloat-abi=soft)
            "${gcc[@]}" -Os -fno-short-enums "${ccount[@]}" -ffunction-sections -fdata-sections -Wall -Werror -Wno-builtin-declaration-mismatch -I "$here" -c "$here/startup.c" -o "$dir/startup.o"
            "${gcc[@]}" -Os -fno-short-enums -fdata-sections -I "$here" -c "$out/recording.c" -o "$dir/recording.o"
            cp "$here/memory-$memory.ld" "$dir/memory.ld"
            # newlib-nano for memcpy/memset and libm (round: set-up only), libgcc for the
            # 64-bit division and the soft double; no C start files: startup.c is the start.
            for image in replay replay-steps replay-fusion replay-activity; do
                "${gcc[@]}" -nostartfiles --specs=nano.specs -Wl,--gc-sections -Wl,--no-enum-size-warning \
                    -Wl,--no-warn-execstack -Wl,-Map="$dir/$image.map" -L "$dir" -T "$here/cortex-m.ld" \
                    "$dir/startup.o" "$dir/Replay${image#replay}.o" "$dir/MotionAlgorithms.o" "$dir/FixedPoint.o" \
                    "$dir/recording.o" -lm -lc -lgcc -o "$dir/$image.elf"
            done
            ;;
        aarch64)
            command -v ld.lld >/dev/null || { echo "no ld.lld: it comes with the Swift toolchain; put its usr/bin on PATH" >&2; return 1; }
            picolibc=/usr/lib/picolibc/aarch64-linux-gnu
            [ -f "$picolibc/lib/release/libc.a" ] || { echo "no $picolibc/lib/release/libc.a: apt-get install picolibc-aarch64-linux-gnu" >&2; return 1; }
            # -O, not -Osize: on an application core speed, not flash, is what counts, and the
            # Linux builds whose instruction counts these sit beside are -O too.
            # COUNT_INSTRUCTIONS: the replay brackets each stage's call (start-aarch64.c).
            # The Cortex-A53's errata 835769 (a 64-bit multiply-accumulate after a load can give
            # a wrong result: a nop goes between) and 843419 (an adrp at a page's end: the linker
            # rewrites it), worked around as Linux and Debian's GCC do for any A53: the Pi 3's
            # and Zero 2 W's are early revisions.
            swift_modules "$dir" "$target" -enable-experimental-feature Embedded -target aarch64-none-none-elf \
                -target-cpu cortex-a53 -Xcc -mfix-cortex-a53-835769 -O -wmo -parse-as-library -Xfrontend -function-sections \
                -D COUNT_INSTRUCTIONS
            cc=(clang --target=aarch64-none-elf -mcpu=cortex-a53 -mfix-cortex-a53-835769 -O2 -ffreestanding -nostdinc -isystem "$picolibc/include/release"
                -isystem "$(clang -print-resource-dir)/include" -Wall -Wextra -Werror -I "$here")
            "${cc[@]}" -ffunction-sections -c "$here/start-aarch64.S" -o "$dir/start-aarch64-S.o"
            "${cc[@]}" -ffunction-sections -fdata-sections -c "$here/start-aarch64.c" -o "$dir/start-aarch64.o"
            "${cc[@]}" -fdata-sections -c "$out/recording.c" -o "$dir/recording.o"
            # picolibc for memcpy, memset and strlen only (its AArch64 assembly, as newlib's): no
            # C start files, no heap; start-aarch64.S is the start.
            for image in replay replay-steps replay-fusion replay-activity; do
                ld.lld --gc-sections --fix-cortex-a53-843419 --fatal-warnings -Map="$dir/$image.map" -T "$here/aarch64.ld" \
                    "$dir/start-aarch64-S.o" "$dir/start-aarch64.o" "$dir/Replay${image#replay}.o" "$dir/MotionAlgorithms.o" \
                    "$dir/FixedPoint.o" "$dir/recording.o" "$picolibc/lib/release/libc.a" -o "$dir/$image.elf"
            done
            ;;
        *) echo "unknown target $target" >&2; return 2 ;;
    esac
}

# The targets side by side (each is a chain of whole-module compiles), failing if any fails.
pids=()
for target in "${targets[@]}"; do
    build_target "$target" &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
