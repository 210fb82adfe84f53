#!/usr/bin/env bash
# Installs the C library into a temporary prefix, checks that it needs no Swift runtime
# library at run time (only Debian packages' libraries: glibc, libstdc++, libgcc_s, zlib, libi2c,
# libiio and their dependencies), then builds Tests/CLibrary/*.c against it with pkg-config, as a user
# would, and runs them (device_motion_example.c runs the simulated MPU-9250 board live for 2 s,
# the pedometer and activity programs the simulated walker for 8 s each, the altimeter programs
# the simulated GY-521 + BMP280 for 5 s each, the water-submersion test the simulated dive for
# 12 s, the batched sensor test the simulated GY-521 and BMI160 at their FIFO's full rate for 5 s).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tools/install-c-library.sh "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }

library="$work/prefix/lib/libopencoremotion.so"
ldd "$library"
if ldd "$library" | grep -q swift; then
    echo "error: $library needs a Swift runtime library at run time; it must be linked statically" >&2
    exit 1
fi
# No Foundation, dynamic or static: the C API goes through MotionManagerCore (standard library,
# Synchronization, Glibc), never through OpenCoreMotion, which imports Foundation. Linked
# statically, Foundation (FoundationEssentials, FoundationInternationalization and ICU's data)
# adds about 60 MB, so a library over 30 MB (about twice today's ~15 MB, room for the engine to
# grow) means it came back; the symbol check names the culprit.
if ldd "$library" | grep -q 'libFoundation'; then
    echo "error: $library loads a Foundation library; the C API must not depend on Foundation" >&2
    exit 1
fi
size="$(stat -L -c %s "$library")"
if [ "$size" -ge $((30 * 1024 * 1024)) ]; then
    echo "error: $library is $size bytes (limit 30 MiB): Foundation linked in statically?" >&2
    nm "$library" | grep -m 5 -E 's(10Foundation|20FoundationEssentials)' >&2 || true
    exit 1
fi
if nm "$library" | grep -q -E 's(10Foundation|20FoundationEssentials)'; then
    echo "error: $library contains Foundation's code; the C API must not depend on Foundation" >&2
    exit 1
fi
echo "libopencoremotion.so: $size bytes, no Foundation"
# Every run-time dependency must come from an installed Debian package (glibc, libstdc++,
# zlib, libi2c, libiio and what they pull in): nothing from the Swift toolchain.
unpackaged=""
while read -r dependency; do
    [ -n "$dependency" ] || continue
    dpkg -S "$(realpath "$dependency")" >/dev/null 2>&1 || dpkg -S "$dependency" >/dev/null 2>&1 || unpackaged+="$dependency"$'\n'
done < <(ldd "$library" | awk '/=> \// {print $3}')
if [ -n "$unpackaged" ]; then echo "error: run-time dependencies not from a Debian package:" >&2; printf '%s' "$unpackaged" >&2; exit 1; fi

export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
status=0
directory=. environment=()
for source in Tests/CLibrary/*.c; do
    program="$work/$(basename "$source" .c)"
    # shellcheck disable=SC2046  # pkg-config's flags are meant to split
    gcc -std=c11 -Wall -Wextra -Werror "$source" -o "$program" $(pkg-config --cflags --libs opencoremotion) \
        -Wl,-rpath,"$work/prefix/lib"
    mkdir -p "$work/scratch"
    case "$(basename "$source")" in
        # Live device motion for 2 s from the simulated MPU-9250 named only as the system's board
        # (OPENCOREMOTION_BOARD), run outside the checkout: the board file and its recording are
        # found under the library's install prefix (PREFIX/share/opencoremotion), nowhere else.
        device_motion_example.c) arguments=(); directory="$work/scratch"
            environment=(OPENCOREMOTION_BOARD=sim-mpu-9250.board OPENCOREMOTION_NO_DAEMON=1) ;;
        # The pedometer and motion activity on the simulated walker (boards/sim-walker.board), 8 s each;
        # water submersion on the simulated dive (boards/sim-ms5837.board), 12 s; batched sensors
        # on the simulated GY-521 and BMI160 + BMP280, 5 s.
        motion_manager_test.c | pedometer_example.c | pedometer_test.c | activity_example.c | activity_test.c \
            | water_submersion_test.c | batched_sensor_test.c) arguments=() ;;
        # The altimeter on the simulated GY-521 + BMP280 (boards/sim-gy-521-bmp280.board): 5 s each.
        altimeter_example.c | altimeter_test.c) arguments=() ;;
        # The sensor recorder against the real motiond (built here) on a socket in the scratch folder.
        sensor_recorder_test.c) swift build --product motiond >/dev/null; arguments=("$(swift build --show-bin-path)/motiond" "$work/scratch") ;;
        *) arguments=(Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz "$work/scratch") ;;
    esac
    echo "== $(basename "$source" .c)"
    (cd "$directory" && env "${environment[@]}" "$program" "${arguments[@]}") || { echo "FAIL $(basename "$source" .c)" >&2; status=1; }
    directory=. environment=()
done
exit $status
