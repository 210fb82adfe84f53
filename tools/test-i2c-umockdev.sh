#!/usr/bin/env bash
# Level 1 (../shared/specs/hil-testing.md): our /dev/i2c-N transport (Sources/LinuxI2C) through
# its real ioctls, with /dev/i2c-1 faked by umockdev. umockdev has no i2c-dev support, so
# tools/level1/i2c_umockdev_fixture.c serves I2C_FUNCS, I2C_SLAVE, I2C_RDWR and I2C_SMBUS itself
# for a BMP280 at 0x76 (registers below: the datasheet's example, 25.08 °C and 100653.25 Pa by
# the 64-bit integer formula, as the kernel's bmp280 driver reports) and a second chip at 0x77
# that a kernel driver owns (I2C_SLAVE answers EBUSY). It logs every ioctl it served.
# Needs gcc, pkg-config, libumockdev-dev, libglib2.0-dev and umockdev (libumockdev-preload).
# Usage: tools/test-i2c-umockdev.sh PATH/TO/motionctl
set -uo pipefail
motionctl="${1:?usage: $0 PATH/TO/motionctl}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
# shellcheck source=tools/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# shellcheck disable=SC2046  # pkg-config output is a word list
if ! gcc -std=gnu11 -Wall -Wextra -Werror -O1 -o "$root/fixture" "$here/level1/i2c_umockdev_fixture.c" \
        $(pkg-config --cflags --libs umockdev-1.0) >"$root/gcc.log" 2>&1; then
    echo "FAIL compiling tools/level1/i2c_umockdev_fixture.c"; sed 's/^/     /' "$root/gcc.log" | tail -20
    echo "i2c-umockdev: 0 passed, 1 failed"
    exit 1
fi

cat >"$root/bmp280.registers" <<'REGISTERS'
0x88: 70 6b 43 67 18 fc 7d 8e 43 d6 d0 0b 27 0b 8c 00 f9 ff 8c 3c f8 c6 70 17  # dig_T1 … dig_P9 (datasheet §3.12)
0xd0: 58                 # id: BMP280
0xf3: 00                 # status: not measuring, im_update clear
0xf7: 65 5a c0 7e ed 00  # press 0x655AC = 415148, temp 0x7EED0 = 519888
REGISTERS
board() { printf 'board = level 1\n[chip baro]\ndriver = bmp280\nbus = i2c-1\naddress = %s\n' "$1" >"$root/$2"; }
board 0x76 bmp280.board
board 0x77 busy.board

# fixture [OPTIONS] -- COMMAND...: runs COMMAND against the fake /dev/i2c-1, logging to ioctl.log.
fixture() { "$root/fixture" --registers "$root/bmp280.registers" --address 0x76 --busy 0x77 --log "$root/ioctl.log" "$@"; }
stream() { fixture "$@" -- "$motionctl" stream --board "$root/bmp280.board" --duration 1 --speed 0; }

# The expected sample transactions: ctrl_meas (0x57: osrs_t ×2, osrs_p ×16, normal), config
# (0x08: filter 4), 0xF6, then press and temp, from one 9-byte burst at 0xF4.
burst='570800655ac07eed00'
rdwr_sample="I2C_RDWR nmsgs=2 msg0=addr=0x76,W,len=1,flags=0x0000,reg=0xf4 msg1=addr=0x76,R,len=9,flags=0x0001 data=$burst result=2"
smbus_sample="I2C_SMBUS addr=0x76 reg=0xf4 size=I2C_BLOCK_DATA(8) R len=9 data=$burst result=0"

# Every printed sample is 100653.25 Pa / 25.08 °C; prints the number of samples.
values_are_right() {
    local out="$1" count
    count="$(sed -nE 's/^streamed 1\.00 s: ([0-9]+) baro, \1 temp$/\1/p' "$out")"
    [ -n "$count" ] && [ "$count" -gt 0 ] || { echo "no 'streamed 1.00 s: N baro, N temp' line"; return 1; }
    [ "$(grep -cE '^ +[0-9.]+  baro +100653\.25 Pa$' "$out")" = "$count" ] || return 1
    [ "$(grep -cE '^ +[0-9.]+  temp +25\.08 °C$' "$out")" = "$count" ] || return 1
    echo "$count"
}

probe_identifies_chip_and_owned_address() {
    fixture -- "$motionctl" probe --bus 1 >"$root/out.txt" || return 1
    cat "$root/out.txt" "$root/ioctl.log"
    grep -qxF '[chip bmp280_1_76]   # BMP280' "$root/out.txt" && grep -qxF 'driver = bmp280' "$root/out.txt" &&
        grep -qxF 'bus = i2c-1' "$root/out.txt" && grep -qxF 'address = 0x76' "$root/out.txt" &&
        grep -qF '# i2c-1 0x77: a kernel driver owns this address' "$root/out.txt" &&
        grep -qxF 'I2C_SLAVE addr=0x77 result=-1 errno=EBUSY' "$root/ioctl.log" &&
        # nothing but that one question went to the owned address
        [ "$(grep -c 'addr=0x77' "$root/ioctl.log")" = 1 ]
}
check "probe --bus 1: BMP280 at 0x76, 0x77 owned by a kernel driver (EBUSY)" probe_identifies_chip_and_owned_address

probe_write_refuses_a_bus_without_an_imu() {
    # The system's board needs an IMU: a BMP280 alone is reported, and no file is written.
    ! fixture -- "$motionctl" probe --bus 1 --write --output "$root/etc/board" 2>"$root/err.txt" || return 1
    cat "$root/err.txt"
    grep -qF "Could not write the system's board file $root/etc/board: no IMU answered on i2c-1" "$root/err.txt" &&
        grep -qF 'raspi-config' "$root/err.txt" && [ ! -e "$root/etc/board" ]
}
check "probe --write: a bus without an IMU is no board (nothing written, says what to check)" probe_write_refuses_a_bus_without_an_imu

stream_reads_values_with_combined_transfers() {
    stream >"$root/out.txt" || return 1
    local count
    count="$(values_are_right "$root/out.txt")" || { cat "$root/out.txt"; return 1; }
    # bring-up: identity, soft reset, im_update poll, 24 trimming bytes, config, then ctrl_meas
    grep -vE '^I2C_RDWR .*reg=0xf4 msg1' "$root/ioctl.log" | sed -E 's/ msg1=.*data=/ -> /' >"$root/bringup.txt"
    cat "$root/bringup.txt"
    diff - "$root/bringup.txt" <<'BRINGUP' || return 1
I2C_FUNCS funcs=0x0eff0009 result=0
I2C_SLAVE addr=0x76 result=0
I2C_RDWR nmsgs=2 msg0=addr=0x76,W,len=1,flags=0x0000,reg=0xd0 -> 58 result=2
I2C_RDWR nmsgs=1 msg0=addr=0x76,W,len=2,flags=0x0000,reg=0xe0 data=b6 result=1
I2C_RDWR nmsgs=2 msg0=addr=0x76,W,len=1,flags=0x0000,reg=0xf3 -> 00 result=2
I2C_RDWR nmsgs=2 msg0=addr=0x76,W,len=1,flags=0x0000,reg=0x88 -> 706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017 result=2
I2C_RDWR nmsgs=1 msg0=addr=0x76,W,len=2,flags=0x0000,reg=0xf5 data=08 result=1
I2C_RDWR nmsgs=1 msg0=addr=0x76,W,len=2,flags=0x0000,reg=0xf4 data=57 result=1
BRINGUP
    # each sample: ONE I2C_RDWR, a 1-byte register write then a 9-byte I2C_M_RD read through 0xFC
    echo "samples: $count; combined transfers: $(grep -cxF "$rdwr_sample" "$root/ioctl.log")"
    [ "$(grep -cxF "$rdwr_sample" "$root/ioctl.log")" = "$count" ] &&
        [ "$(wc -l <"$root/ioctl.log")" = $((count + 8)) ]
}
check "stream over I2C_RDWR: 100653.25 Pa, 25.08 °C; each sample one write+read (I2C_M_RD) transfer" \
    stream_reads_values_with_combined_transfers

stream_falls_back_to_smbus_blocks() {
    stream --smbus-only >"$root/out.txt" || { cat "$root/out.txt" "$root/ioctl.log"; return 1; }
    local count
    count="$(values_are_right "$root/out.txt")" || { cat "$root/out.txt"; return 1; }
    sort "$root/ioctl.log" | uniq -c
    grep -qxF 'I2C_FUNCS funcs=0x0eff0008 result=0' "$root/ioctl.log" &&
        ! grep -q '^I2C_RDWR' "$root/ioctl.log" &&
        [ "$(grep -cxF "$smbus_sample" "$root/ioctl.log")" = "$count" ] &&
        # every block transfer is 1…32 bytes, and they all went to 0x76
        awk '/^I2C_SMBUS/ { if (!match($0, / len=[0-9]+/)) exit 1; n = substr($0, RSTART + 5, RLENGTH - 5) + 0
                            if (n < 1 || n > 32 || $2 != "addr=0x76") exit 1 }' "$root/ioctl.log" &&
        grep -qxF 'I2C_SMBUS addr=0x76 reg=0x88 size=I2C_BLOCK_DATA(8) R len=24 data=706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017 result=0' "$root/ioctl.log" &&
        grep -qE '^I2C_SMBUS addr=0x76 reg=0xf4 size=I2C_BLOCK_(DATA\(8\)|BROKEN\(6\)) W len=1 data=57 result=0$' "$root/ioctl.log"
}
check "stream without I2C_FUNC_I2C: same values through I2C_SMBUS I2C-block transfers of ≤ 32 bytes" \
    stream_falls_back_to_smbus_blocks

probe_works_on_smbus_only_adapter() {
    fixture --smbus-only -- "$motionctl" probe --bus 1 >"$root/out.txt" || { cat "$root/ioctl.log"; return 1; }
    grep -qxF '[chip bmp280_1_76]   # BMP280' "$root/out.txt" && grep -qF '# i2c-1 0x77: a kernel driver owns this address' "$root/out.txt"
}
check "probe --bus 1 without I2C_FUNC_I2C: absent addresses (ENXIO) are skipped, BMP280 found" probe_works_on_smbus_only_adapter

owned_address_is_refused() {
    if fixture -- "$motionctl" stream --board "$root/busy.board" --duration 1 --speed 0 >"$root/out.txt" 2>"$root/err"; then return 1; fi
    cat "$root/err" "$root/ioctl.log"
    grep -qF 'on /dev/i2c-1 at address 0x77: a kernel driver owns this address (EBUSY). Read the chip through its IIO driver instead' "$root/err" &&
        # refused before any transfer: the chip there would have answered I2C_RDWR
        [ "$(grep -c 'addr=0x77' "$root/ioctl.log")" = 1 ]
}
check "a board naming the owned address fails with the EBUSY advice, before any transfer" owned_address_is_refused

reset_waits_for_im_update() {
    stream --im-update-reads 3 >"$root/out.txt" || { cat "$root/out.txt"; return 1; }
    values_are_right "$root/out.txt" >/dev/null || return 1
    grep 'reg=0xf3' "$root/ioctl.log"
    # im_update reads 1 three times after the soft reset, then 0: four polls, then the trimming
    [ "$(grep -c 'reg=0xf3' "$root/ioctl.log")" = 4 ] && grep -q 'reg=0xf3 .* data=00 result=2' "$root/ioctl.log"
}
check "after the soft reset, status.im_update is polled until it clears" reset_waits_for_im_update

write_error_is_reported() {
    local smbus="$1"
    if stream $smbus --fail-register 0xf5 >"$root/out.txt" 2>"$root/err"; then
        echo "exit status 0 although the config write failed with EIO:"; grep 'reg=0xf5' "$root/ioctl.log"; tail -1 "$root/out.txt"; return 1
    fi
    cat "$root/err"
    grep -qF 'Could not complete configuring the BMP280 on /dev/i2c-1 at address 0x76, register 0xF5: input/output error (errno 5)' "$root/err"
}
check "an EIO on a register write (I2C_RDWR) stops the stream with errno 5" write_error_is_reported ""
check "an EIO on a register write (SMBus fallback) stops the stream with errno 5" write_error_is_reported --smbus-only

read_error_is_reported() {
    local smbus="$1"
    if stream $smbus --fail-register 0xd0 >"$root/out.txt" 2>"$root/err"; then return 1; fi
    cat "$root/err"
    grep -qF 'Could not complete reading the BMP280 identity register (0xD0) on /dev/i2c-1 at address 0x76, register 0xD0: input/output error (errno 5)' "$root/err"
}
check "an EIO on a register read (I2C_RDWR) is reported with errno 5" read_error_is_reported ""
check "an EIO on a register read (SMBus fallback) is reported with errno 5" read_error_is_reported --smbus-only

finish i2c-umockdev
