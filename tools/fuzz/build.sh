#!/usr/bin/env bash
# Builds the libFuzzer harness, OUT/ocm-fuzz (default OUT: .build-fuzz), from the package's own
# module sources with swiftc, every module instrumented with -sanitize=fuzzer,address (SwiftPM
# cannot link an executable whose main() is libFuzzer's). One binary holds every target; the
# environment variable OCM_FUZZ_TARGET picks one (tools/fuzz/run.sh sets it; the targets are
# listed in Tests/Fuzz/FuzzTargets.swift). Any warning in the project's sources fails.
# Usage: tools/fuzz/build.sh [OUT]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/.build-fuzz}"
mkdir -p "$out/modules"
cd "$root"

flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
       -package-name opencoremotion -parse-as-library -O -wmo -enable-testing -sanitize=fuzzer,address
       -I "$out/modules" -module-cache-path "$out/module-cache")
for library in Sources/SystemLibraries/*/; do flags+=(-I "$library"); done
# A change of flags or toolchain rebuilds every module.
stamp="$(swiftc --version 2>&1 | head -1) ${flags[*]}"
if [ "$(cat "$out/flags" 2>/dev/null)" != "$stamp" ]; then rm -f "$out"/*.o; echo "$stamp" > "$out/flags"; fi

# swiftc, failing on any warning; its log in OUT/<name>.log.
swift_compile() {
    local name="$1"; shift
    local log="$out/$name.log"
    swiftc "$@" >"$log" 2>&1 || { cat "$log"; return 1; }
    if grep -q "^$root/.*warning:" "$log"; then cat "$log"; return 1; fi
}

# One library module from Sources/<name>, unless its object is newer than all its sources and
# no module before it (its possible dependencies: the list is in dependency order) was rebuilt.
rebuilt=no
module() {
    local name="$1" sources
    sources=$(find "Sources/$name" -name '*.swift' | sort)
    if [ "$rebuilt" = no ] && [ -f "$out/$name.o" ] && [ -z "$(find "Sources/$name" -name '*.swift' -newer "$out/$name.o")" ]; then
        return
    fi
    rebuilt=yes
    echo "  $name"
    # shellcheck disable=SC2086
    swift_compile "$name" "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
        -c $sources -o "$out/$name.o"
}

echo "==> fuzz harness: modules (swiftc -sanitize=fuzzer,address)"
# In dependency order (Package.swift).
for name in FixedPoint MotionAlgorithms Recordings SensorBus LinuxI2C LinuxIIO LinuxGPIO LinuxSerial Chips Geomagnetism MotionEngine \
            Locking MotionDaemonProtocol MotionDaemonClient MotionManagerCore MotionHistory MotionDaemon MotionMQTT; do
    module "$name"
done
echo "  ocm-fuzz"
objects=()
for name in FixedPoint MotionAlgorithms Recordings SensorBus LinuxI2C LinuxIIO LinuxGPIO LinuxSerial Chips Geomagnetism MotionEngine \
            Locking MotionDaemonProtocol MotionDaemonClient MotionManagerCore MotionHistory MotionDaemon MotionMQTT; do
    objects+=("$out/$name.o")
done
# shellcheck disable=SC2046
swift_compile ocm-fuzz "${flags[@]}" -module-name OCMFuzz $(find Tests/Fuzz -name '*.swift' | sort) "${objects[@]}" \
    -lz -li2c -liio -lgpiod -lmosquitto -o "$out/ocm-fuzz"
echo "built $out/ocm-fuzz"
