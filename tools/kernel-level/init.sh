#!/bin/sh
# /init of the level-2 initramfs (tools/test-kernel-qemu.sh): loads the kernel's drivers, makes
# i2c-stub chips with register maps preloaded byte by byte, binds the real IIO drivers to them,
# sets up an hrtimer trigger and a gpio-sim line, runs /bin/ocm-kernel-tests, powers off.
# Setup problems are printed as "init: ..." and show up as failed checks in the guest binary.
export PATH=/bin
mount -t proc none /proc
mount -t sysfs none /sys
mount -t devtmpfs none /dev
say() { echo "init: $*"; }

# No udev here: nothing autoloads, so every driver is loaded before its chip is instantiated
# (without the driver, new_device leaves the client unbound without a word).
load() { modprobe "$@" || say "modprobe $* failed"; }
load configfs
mount -t configfs none /sys/kernel/config
load i2c-dev
# Plain i2c-stub is SMBus only (no I2C_FUNC_I2C): the kernel drivers use SMBus I2C-block
# transfers on it, and our LinuxI2CBus falls back to them. i2c-stub-rdwr adds plain I2C
# transfers for our I2C_RDWR path. 0x77 is a BMP280 register map that no driver owns.
load i2c-stub chip_addr=0x1c,0x1d,0x1e,0x68,0x69,0x6a,0x6b,0x75,0x76,0x77
load i2c-stub-rdwr chip_addr=0x76,0x77
for module in bmp280-i2c bmi160_i2c st_lsm6dsx_i2c inv-mpu6050-i2c st_magn_i2c hmc5843_i2c \
    industrialio-configfs iio-trig-hrtimer gpio-sim; do
    load "$module"
done

bus_named() {
    for adapter in /sys/bus/i2c/devices/i2c-*; do
        [ "$(cat "$adapter/name")" = "$1" ] && { echo "${adapter##*/i2c-}"; return; }
    done
    say "no I2C adapter named \"$1\""
}
STUB="$(bus_named "SMBus stub driver")"
RDWR="$(bus_named "I2C stub driver (RDWR)")"

# preload BUS ADDRESS REGISTER BYTE...: consecutive registers, one byte write each (an i2c-stub
# word write would land in one register only). busybox i2cset reads every number as hex.
preload() {
    bus="$1"; address="$2"; register=$(($3)); shift 3
    for byte in "$@"; do
        i2cset -f -y "$bus" "$address" "$(printf 0x%02x "$register")" "0x$byte" || say "i2cset $bus $address $register failed"
        register=$((register + 1))
    done
}
instantiate() { echo "$2 $3" >"/sys/bus/i2c/devices/i2c-$1/new_device" || say "new_device $2 $3 on i2c-$1 failed"; }

# BMP280, datasheet example: trimming T1=27504 … P9=6000 (0x88..0x9F), adc_P=415148 and
# adc_T=519888 (0xF7..0xFC): 25.08 °C, 100653.27 Pa. Chip id 0x58.
bmp280() {
    preload "$1" "$2" 0xD0 58
    preload "$1" "$2" 0x88 70 6b 43 67 18 fc 7d 8e 43 d6 d0 0b 27 0b 8c 00 f9 ff 8c 3c f8 c6 70 17
    preload "$1" "$2" 0xF7 65 5a c0 7e ed 00
}
for bus in "$STUB" "$RDWR"; do bmp280 "$bus" 0x76; bmp280 "$bus" 0x77; done
instantiate "$STUB" bmp280 0x76
instantiate "$RDWR" bmp280 0x76

# BMI160: chip id 0xD1, accel range ±2 g (0x41=0x03), gyro ±2000 °/s (0x43=0x00). Data, LE:
# gyro (1000, -1000, 0), accel (100, -200, 16384).
preload "$STUB" 0x69 0x00 d1
preload "$STUB" 0x69 0x41 03
preload "$STUB" 0x69 0x43 00
preload "$STUB" 0x69 0x0C e8 03 18 fc 00 00 64 00 38 ff 00 40
instantiate "$STUB" bmi160 0x69

# MPU-6050: WHO_AM_I 0x68. Data, BE from 0x3B: accel (0, 0, 16384), temp -2000, gyro (1640, -1640, 0).
preload "$STUB" 0x68 0x75 68
preload "$STUB" 0x68 0x3B 00 00 00 00 40 00 f8 30 06 68 f9 98 00 00
instantiate "$STUB" mpu6050 0x68

# LSM6DS3: WHO_AM_I 0x69. Data, LE: gyro 0x22.. (1000, -1000, 0), accel 0x28.. (0, 0, 16384).
preload "$STUB" 0x6a 0x0F 69
preload "$STUB" 0x6a 0x22 e8 03 18 fc 00 00 00 00 00 00 00 40
instantiate "$STUB" lsm6ds3 0x6a

# LSM6DSOX (the tagged-FIFO map; st_lsm6dsx's LSM6DSO row): WHO_AM_I 0x6C. The same data as the
# LSM6DS3 above, at the driver's reset full scales (±2 g, ±250 °/s). The kernel's sensor-hub
# probe finds no device behind it (STATUS_MASTER stays 0) and goes on without one.
preload "$STUB" 0x6b 0x0F 6c
preload "$STUB" 0x6b 0x22 e8 03 18 fc 00 00 00 00 00 00 00 40
instantiate "$STUB" lsm6dsox 0x6b

# LIS3MDL (st_magn): the driver ORs 0x80 (auto-increment) into every read address, so WHO_AM_I
# 0x3D sits at 0x0F and 0x8F and the data at 0xA8.. (LE): (6842, -6842, 0) = (1, -1, 0) G at ±4 G.
preload "$STUB" 0x1c 0x0F 3d
preload "$STUB" 0x1c 0x8F 3d
preload "$STUB" 0x1c 0xA8 ba 1a 46 e5 00 00
instantiate "$STUB" lis3mdl 0x1c

# HMC5883L: id "H43" at 0x0A, status RDY (0x09=0x01; else every read waits and fails), data BE
# in the order X, Z, Y from 0x03: (1090, 0, -1090) = (1, 0, -1) G at the default gain.
preload "$STUB" 0x1e 0x0A 48 34 33
preload "$STUB" 0x1e 0x09 01
preload "$STUB" 0x1e 0x03 04 42 fb be 00 00
instantiate "$STUB" hmc5883l 0x1e

# LIS2MDL (st_magn): WHO_AM_I 0x40 at 0x4F, STATUS Zyxda, data LE from 0x68: (1000, -1000, 0) =
# (150, -150, 0) µT at 1.5 mG/LSB. At 0x1d (the chip's own 0x1e holds the HMC5883L above; the
# driver does not care). Also at 0xCF / 0xE7.. in case the driver ORs in 0x80 as for the LIS3MDL.
preload "$STUB" 0x1d 0x4F 40
preload "$STUB" 0x1d 0xCF 40
preload "$STUB" 0x1d 0x67 08 e8 03 18 fc 00 00
preload "$STUB" 0x1d 0xE7 08 e8 03 18 fc 00 00
instantiate "$STUB" lis2mdl 0x1d

# BMP388 (the bmp280 driver's "bmp380"): CHIP_ID 0x50, STATUS cmd_rdy + drdy (0x70: the 6.1
# driver refuses its soft reset while cmd_rdy is low), ERR_REG 0, uncomp_press 6200000 and
# uncomp_temp 8500000 LE from 0x04, the trimming of BMP388Calibration.example at 0x31..0x45:
# 24.834 °C and 101375.68 Pa by the datasheet's float formulas. At 0x75 (0x76/0x77 hold BMP280s).
preload "$STUB" 0x75 0x00 50
preload "$STUB" 0x75 0x03 70 c0 9a 5e 20 b3 81
preload "$STUB" 0x75 0x31 7c 6c 10 4b f9 80 f8 3c f4 23 01 70 62 f8 75 03 fa 1c 3e 08 c4
instantiate "$STUB" bmp380 0x75

# An hrtimer trigger "t0" at 100 Hz for the buffered captures (no chip has an IRQ here).
RATE=100
mkdir /sys/kernel/config/iio/triggers/hrtimer/t0 || say "could not create hrtimer trigger t0"
for trigger in /sys/bus/iio/devices/trigger*; do
    [ "$(cat "$trigger/name")" = t0 ] && echo "$RATE" >"$trigger/sampling_frequency"
done

# gpio-sim: one bank of 4 lines, line 0 named like a board's data-ready line. Its sysfs `pull`
# file drives the line's input level, as a chip's interrupt pin would.
sim=/sys/kernel/config/gpio-sim/ocm
mkdir -p "$sim/bank0/line0" && echo 4 >"$sim/bank0/num_lines" && echo ocm-drdy >"$sim/bank0/line0/name" &&
    echo 1 >"$sim/live" || say "could not set up gpio-sim"
GPIO_PULL="/sys/devices/platform/$(cat "$sim/dev_name")/$(cat "$sim/bank0/chip_name")/sim_gpio0/pull"

export OCM_STUB_BUS="$STUB" OCM_RDWR_BUS="$RDWR" OCM_TRIGGER_RATE="$RATE" OCM_GPIO_LINE=ocm-drdy OCM_GPIO_PULL="$GPIO_PULL"
# The host kills QEMU after its own timeout too; this one reports a hang as a failure.
timeout 180 /bin/ocm-kernel-tests
status=$?
# 0: all passed, 1: some failed (the binary printed its summary); anything else is a crash.
if [ "$status" -gt 1 ]; then
    echo "FAIL ocm-kernel-tests: exited with status $status before its summary"
    echo "0 passed, 1 failed"
fi
poweroff -f
