#!/usr/bin/env bash
# Level 1 (../shared/specs/hil-testing.md): our IIO code through the real libiio 0.24 `local:`
# backend, with /sys faked by umockdev (LD_PRELOAD). The fake tree is what the kernel's
# st_lsm6dsx (LSM9DS1), st_magn and st_pressure (LPS25H) and bmp280 drivers publish; the
# expected values follow from (raw + offset) × scale and the mount matrix, computed by hand.
# Usage: tools/test-iio-umockdev.sh PATH/TO/motionctl
set -uo pipefail
motionctl="${1:?usage: $0 PATH/TO/motionctl}"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
passed=0; failed=0
check() {
    local name="$1"; shift
    if "$@" >"$root/last.log" 2>&1; then passed=$((passed + 1)); echo "ok   $name"
    else failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' "$root/last.log" | tail -20; fi
}

# device NAME INDEX PARENT ATTR=VALUE...: one iio:deviceN with attribute files (newline-ended).
device() {
    local name="$1" index="$2" parent="$3"; shift 3
    local dir="$root/sys/devices/platform/soc/$parent/iio:device$index"
    mkdir -p "$dir" "$root/sys/bus/iio/devices"
    printf '%s\n' "$name" >"$dir/name"
    for pair in "$@"; do printf '%s\n' "${pair#*=}" >"$dir/${pair%%=*}"; done
    ln -s "../../../devices/platform/soc/$parent/iio:device$index" "$root/sys/bus/iio/devices/iio:device$index"
}
device lsm9ds1_accel 0 i2c-1/1-006a in_accel_x_raw=100 in_accel_y_raw=-200 in_accel_z_raw=16384 \
    in_accel_scale=0.000598 "in_accel_mount_matrix=0, 1, 0; -1, 0, 0; 0, 0, 1" \
    sampling_frequency=59.5 "sampling_frequency_available=14.9 59.5 119 238 476 952"
device lsm9ds1_magn 1 i2c-1/1-001c in_magn_x_raw=1000 in_magn_y_raw=0 in_magn_z_raw=-3000 in_magn_scale=0.000146
device lps25h 2 i2c-1/1-005c in_pressure_raw=4128768 in_pressure_scale=0.000024414 \
    in_temp_raw=-9600 in_temp_scale=2.083333 in_temp_offset=20400
device bmp280 3 i2c-1/1-0076 in_temp_input=25080 in_pressure_input=100.653253906

run() { UMOCKDEV_DIR="$root" LD_PRELOAD=libumockdev-preload.so.0 "$motionctl" iio "$@"; }

values_are_converted_and_mounted() {
    run >"$root/out.txt" || return 1
    cat "$root/out.txt"
    # accel: raw × 0.000598 = (0.0598, −0.1196, 9.797632); mount [0 1 0; −1 0 0; 0 0 1] → (−0.1196, −0.0598, 9.797632)
    grep -qE '^  accel +-0\.119600 +-0\.059800 +9\.797632$' "$root/out.txt" &&
    # magn: raw × 0.000146 G × 100 µT/G = (14.6, 0, −43.8) µT
    grep -qE '^  magn +14\.600000 +0\.000000 +-43\.800000$' "$root/out.txt" &&
    # lps25h: 4128768 × 0.000024414 kPa × 1000 = 100799.741952 Pa; (−9600 + 20400) × 2.083333 m°C = 22.499996 °C
    grep -qE '^  pressure +100799\.741952$' "$root/out.txt" && grep -qE '^  temp +22\.499996$' "$root/out.txt" &&
    # bmp280 processed inputs: 25.08 °C and 100653.253906 Pa (the kernel's own conversion)
    grep -qE '^  temp +25\.080000$' "$root/out.txt" && grep -qE '^  pressure +100653\.253906$' "$root/out.txt"
}
check "libiio local: devices, (raw + offset) × scale in SI, mount matrix" values_are_converted_and_mounted

rate_is_chosen_from_available() {
    run --rate 100 >"$root/out.txt" || return 1
    grep -q 'iio:device0 lsm9ds1_accel: sampling_frequency set to 119.0 Hz' "$root/out.txt" &&
        [ "$(cat "$root/sys/devices/platform/soc/i2c-1/1-006a/iio:device0/sampling_frequency")" = "119" ]
}
check "sampling_frequency set to the nearest available rate" rate_is_chosen_from_available

stream_reads_an_iio_board() {
    cat >"$root/hat.board" <<'BOARD'
board = Sense HAT through its kernel drivers
[chip imu]
driver = lsm9ds1
bus = iio
device = lsm9ds1_accel
rate = 100
[chip barometer]
driver = lps25h
bus = iio
device = lps25h
BOARD
    UMOCKDEV_DIR="$root" LD_PRELOAD=libumockdev-preload.so.0 "$motionctl" stream --board "$root/hat.board" --speed 0 --duration 1 >"$root/out.txt" || return 1
    tail -3 "$root/out.txt"
    # accel set to 119 Hz (nearest to 100 available), read once per period on CLOCK_MONOTONIC (a
    # board with real chips runs in real time): at k × 8.403 ms, k = 0…119, so 120 reads in 1 s
    # (a late last wake-up may fall past the end: 119); the barometer has no sampling_frequency
    # and is read at 10 Hz: 10 each of pressure and temperature.
    grep -qE 'streamed 1.00 s: (119|120) acc, 10 baro, 10 temp' "$root/out.txt" &&
        grep -qE '^ +0\.000  acc +-0\.11960 +-0\.05980 +9\.7976[34]$' "$root/out.txt"  # 9.797632 in Q16.16: 9.797638
}
check "stream reads a board whose chips a kernel driver owns, through IIO" stream_reads_an_iio_board

missing_iio_device_is_explained() {
    printf 'board = b\n[chip imu]\ndriver = lsm9ds1\nbus = iio\ndevice = lsm6dsox\n' >"$root/missing.board"
    if UMOCKDEV_DIR="$root" LD_PRELOAD=libumockdev-preload.so.0 "$motionctl" stream --board "$root/missing.board" --duration 1 2>"$root/err"; then return 1; fi
    grep -q 'Chip "imu": IIO context "local:" has no device named "lsm6dsox" (it has: lsm9ds1_accel, lsm9ds1_magn, lps25h, bmp280)' "$root/err"
}
check "a board naming an absent IIO device lists the ones present" missing_iio_device_is_explained

malformed_mount_matrix_is_an_error() {
    printf '1, 0; 0, 1\n' >"$root/sys/devices/platform/soc/i2c-1/1-006a/iio:device0/in_accel_mount_matrix"
    if run 2>"$root/err"; then return 1; fi
    grep -q 'iio:device0 (lsm9ds1_accel): its accel mount_matrix "1, 0; 0, 1" is not three rows of three numbers' "$root/err"
}
check "a malformed mount matrix is an error naming the device" malformed_mount_matrix_is_an_error

unreachable_remote_context_is_explained() {
    if "$motionctl" iio --uri ip:127.0.0.1 2>"$root/err"; then return 1; fi
    grep -q 'IIO context "ip:127.0.0.1": could not create the context' "$root/err"
}
check "an unreachable iiod is reported with the URI" unreachable_remote_context_is_explained

echo "iio-umockdev: $passed passed, $failed failed"
((failed == 0))
