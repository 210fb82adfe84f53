#!/usr/bin/env bash
# The README's two commands: `tools/setup.sh demo` and `tools/setup.sh test`.
#
#   demo  install the missing Debian packages, build, and play a real recorded walk live on the
#         simulated Sense HAT (further arguments go to `motionctl demo`, e.g. --speed 10)
#   test  install the missing Debian packages, build (debug and release, zero warnings), and run
#         every test: Swift tests (also under ASan and under TSan), fuzzing, the Embedded Swift
#         build, the firmware images under QEMU (Cortex-M0/M4/A53), the C library, the Python
#         package, motionctl end to end, the Debian packages, levels 1 (umockdev) and 2 (QEMU)
#         of ../shared/specs/hil-testing.md
#
# Works as root or as a user with sudo on Debian 12 / Raspberry Pi OS bookworm. Swift itself is
# not a Debian package: it is found on PATH, in $SWIFT_BIN, or in /opt/swift/usr/bin.
set -euo pipefail

cd "$(dirname "$0")/.."
mode="${1:-}"
case "$mode" in
    demo|test) ;;
    *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac

# --- Debian packages --------------------------------------------------------------------------
# Build: the C libraries we bind (libi2c 4.3, libiio 0.24, libgpiod 1.6, zlib) and pkg-config.
# Test: gcc for the C example, python3 for the end-to-end checks and the fixture generators.
packages=(libi2c-dev libiio-dev libgpiod-dev zlib1g-dev pkg-config gcc libc6-dev python3)
# Build: Eclipse Mosquitto's MQTT client library (MotionMQTT); test: the mosquitto broker itself,
# which MotionMQTTTests start on a free loopback port.
packages+=(libmosquitto-dev)
if [ "$mode" = test ]; then packages+=(mosquitto openssl); fi  # openssl: the MQTT-over-TLS check makes its CA
# Test only: umockdev fakes /sys for the real libiio and serves /dev/i2c-N ioctls to our binary
# through a small C fixture built against libumockdev (level 1 of ../shared/specs/hil-testing.md).
if [ "$mode" = test ]; then packages+=(umockdev libumockdev-dev libglib2.0-dev); fi
# Test only: MotionDaemonTests checks motiond's unit with systemd-analyze verify.
if [ "$mode" = test ]; then packages+=(systemd); fi
# Test only: tools/test-motionctl.sh holds each stage to its instructions per sample under
# valgrind --tool=callgrind (tools/benchmarks/instruction-budget.txt).
if [ "$mode" = test ]; then packages+=(valgrind); fi
# Test only: ../shared/eval's scorers (the device-motion accuracy guard) need numpy; the Python
# package's tests (tools/test-python.sh) install it into a venv and run pytest (numpy for batches,
# matplotlib for `motionctl plot`'s pictures).
if [ "$mode" = test ]; then packages+=(python3-numpy python3-venv python3-pytest python3-matplotlib); fi
# Test only, level 2 (the real kernel under QEMU): tools/test-kernel-qemu.sh adds the kernel
# headers of the version it finds itself.
if [ "$mode" = test ]; then packages+=(qemu-system-x86 busybox-static cpio kmod xz-utils make); fi
# Test only: the firmware image (tools/test-firmware-qemu.sh) is linked with the bare-metal Arm
# GCC and newlib and runs under QEMU's micro:bit (Cortex-M0) and MPS2 AN386 (Cortex-M4); its
# AArch64 image takes memcpy/memset from picolibc (whose package brings aarch64-linux-gnu-size
# and -nm) and runs under qemu-system-aarch64 (in the qemu-system-arm package) on virt's Cortex-A53.
if [ "$mode" = test ]; then packages+=(gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm picolibc-aarch64-linux-gnu); fi
# Test only: the Debian packages (tools/test-debian-package.sh) are built by dpkg-buildpackage
# with debhelper (help2man writes the manual pages), checked with lintian.
if [ "$mode" = test ]; then packages+=(debhelper dpkg-dev fakeroot help2man lintian); fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "==> installing Debian packages: ${missing[*]}"
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
        as_root=(sudo)
    fi
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- Swift ------------------------------------------------------------------------------------
for candidate in "${SWIFT_BIN:-}" /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/swift" ]; then PATH="$candidate:$PATH"; fi
done
if ! command -v swift >/dev/null; then
    echo "error: Swift 6 was not found on PATH, in \$SWIFT_BIN or in /opt/swift/usr/bin." >&2
    echo "Install a Swift 6.1+ toolchain for Linux (swift.org), then run this again." >&2
    exit 1
fi
export PATH

# Builds, failing on any warning in this project's own sources (dependencies may warn).
build() {
    local log
    log="$(mktemp)"
    if ! swift build "$@" 2>&1 | tee "$log"; then rm -f "$log"; return 1; fi
    if grep -E "^$PWD/(Sources|Tests|tools)/.*: warning:" "$log"; then
        echo "error: the build above has warnings in this project's sources (swift build $*)" >&2
        rm -f "$log"; return 1
    fi
    rm -f "$log"
}

if [ "$mode" = demo ]; then
    echo "==> building motionctl (release)"
    build -c release --product motionctl
    echo "==> demo: a real recorded walk (Tests/Recordings/README.md: Oxford Step Counter, CC BY 4.0) live on the simulated Sense HAT"
    # The board and the recording are named here, not found: the demo plays exactly these.
    # Anything after `demo` goes to motionctl demo (`tools/setup.sh demo --speed 10`, `--plain`).
    exec "$(swift build -c release --show-bin-path)/motionctl" demo --board boards/sim-sense-hat.board \
        --recording Tests/Recordings/oxford_samsung_frontpocket_walk_90s.csv.gz "${@:2}"
fi

# --- test -------------------------------------------------------------------------------------
passed=0; failed=0; failures=()
stage() {
    local name="$1"; shift
    echo "==> $name"
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
}
stage "debug build, zero warnings" build --build-tests
stage "release build, zero warnings" build -c release
stage "Swift tests" swift test --skip-build
# Issue 22: the tests under AddressSanitizer + LeakSanitizer and under ThreadSanitizer (what
# each leaves out, and why: tools/test-sanitizers.sh), and every parser of untrusted input under
# libFuzzer, 10 s a target (tools/fuzz/run.sh; longer runs: docs/testing.md). The whole suite
# runs under TSan, not only the threaded modules: it takes about as long as the unsanitized
# suite (docs/testing.md has the time), and the threads are everywhere a board runs.
stage "Swift tests under AddressSanitizer + LeakSanitizer" tools/test-sanitizers.sh address
stage "Swift tests under ThreadSanitizer" tools/test-sanitizers.sh thread
stage "Fuzzing: wire protocol, MQTT payloads, recordings, board/calibration/policy/MQTT files, IIO, chip drivers (10 s each)" tools/fuzz/run.sh --seconds 10
stage "Embedded Swift build (aarch64, armv6m)" tools/check-embedded.sh
stage "Firmware under QEMU: Cortex-M0, M4 and A53 images bit-identical to the Linux build, A53 instructions per sample" tools/test-firmware-qemu.sh
stage "C library: install, ldd, C test program" tools/test-c-library.sh
stage "Debian packages: dpkg-buildpackage, lintian, install, C program via pkg-config, a Swift app on /etc/opencoremotion/board, motionctl, purge" tools/test-debian-package.sh "$(swift build -c release --show-bin-path)/TiltSteering"
stage "Python package: pip install from the checkout, pytest" tools/test-python.sh "$(swift build --show-bin-path)/motiond" "$(swift build -c release --show-bin-path)/motionctl"
stage "motionctl end to end" tools/test-motionctl.sh "$(swift build -c release --show-bin-path)/motionctl"
stage "IIO through the real libiio, /sys faked by umockdev" tools/test-iio-umockdev.sh "$(swift build -c release --show-bin-path)/motionctl"
stage "/dev/i2c-N ioctls through umockdev (I2C_RDWR, SMBus fallback, EBUSY)" tools/test-i2c-umockdev.sh "$(swift build -c release --show-bin-path)/motionctl"
stage "motiond soak: 10 minutes, 3 clients × accelerometer, gyroscope, device motion at 100 Hz; flat memory, nothing lost" tools/soak-motiond.sh --minutes 10 --release
stage "Level 2 guest binary (static Swift stdlib, zero warnings)" build -c release --product ocm-kernel-tests --scratch-path .build-kernel -Xswiftc -static-stdlib
stage "Level 2: the real kernel's drivers under QEMU (i2c-stub, hrtimer trigger, gpio-sim)" tools/test-kernel-qemu.sh .build-kernel/release/ocm-kernel-tests
((failed == 0)) || printf 'failed stage: %s\n' "${failures[@]}"
echo "stages: $passed passed, $failed failed"
((failed == 0))
