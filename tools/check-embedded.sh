#!/usr/bin/env bash
# Proves that the math and algorithm modules stay inside the Embedded Swift subset (no
# Foundation, no Glibc, no existentials, no runtime reflection): compiles FixedPoint and then
# MotionAlgorithms against it, whole-module, for a 64-bit (aarch64) and a 32-bit Cortex-M0
# (armv6m) bare-metal target. Any error or warning fails.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# Every source file of each module, in its subfolders too (Fusion/, Steps/, Activity/).
fixed_point=$(find Sources/FixedPoint -name '*.swift' | sort)
algorithms=$(find Sources/MotionAlgorithms -name '*.swift' | sort)
status=0
for target in aarch64-none-none-elf armv6m-none-none-eabi; do
    mkdir -p "$out/$target"
    log="$out/$target.log"
    if swiftc -enable-experimental-feature Embedded -target "$target" -Osize -wmo -parse-as-library \
            -module-name FixedPoint -emit-module -emit-module-path "$out/$target/FixedPoint.swiftmodule" \
            -c $fixed_point -o "$out/$target/FixedPoint.o" >"$log" 2>&1 &&
       swiftc -enable-experimental-feature Embedded -target "$target" -Osize -wmo -parse-as-library \
            -module-name MotionAlgorithms -I "$out/$target" \
            -c $algorithms -o "$out/$target/MotionAlgorithms.o" >>"$log" 2>&1 &&
       ! grep -q "warning:" "$log"; then
        echo "embedded $target: ok ($(du -cb "$out/$target"/*.o | tail -1 | cut -f1) bytes of code and data)"
    else
        cat "$log"
        echo "embedded $target: FAILED"
        status=1
    fi
done
exit $status
