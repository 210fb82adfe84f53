#!/usr/bin/env bash
# Builds the Debian packages from debian/ (docs/debian-package.md) in a temporary copy of the
# checkout, runs lintian on them (errors fail, warnings are listed), installs the four packages,
# builds a C program with `pkg-config --cflags --libs opencoremotion` against the installed files
# and runs it on a simulated board found from /usr, runs a Swift app written as for iOS
# (Examples/TiltSteering, `CMMotionManager()`: the system's board) from outside the checkout
# without and with /etc/opencoremotion/board, runs /usr/bin/motionctl, verifies the installed
# unit, then purges the packages and checks that none of their files is left.
#
# Usage: tools/test-debian-package.sh [SWIFT_APP]   (SWIFT_APP: a built tilt-steering, e.g.
# .build/release/TiltSteering; without it that part is skipped and says so)
#
# OCM_DEB_PREBUILT=DIR tests the packages dpkg-buildpackage left in DIR instead of building.
# Needs root (or sudo) to install packages; refuses to run if any of them is installed already.
# Bounded: the build may take OCM_DEB_BUILD_TIMEOUT seconds (default 1800), everything else runs
# in a few seconds. Everything is undone on exit, on failure too: packages purged, the user and
# group the package created removed if they did not exist before, the temporary folder deleted.
set -euo pipefail
swift_app="${1:+$(realpath "$1")}"
cd "$(dirname "$0")/.."
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
packages=(libopencoremotion0 libopencoremotion-dev opencoremotion-tools motiond)
version="$(dpkg-parsechangelog -S Version)"

for package in "${packages[@]}"; do
    if dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null | grep -qv '^not-installed$'; then
        echo "error: $package is installed on this machine; this test installs and purges it, remove it first" >&2
        exit 1
    fi
done
user_existed=0; group_existed=0
getent passwd motiond >/dev/null && user_existed=1
getent group motion >/dev/null && group_existed=1

work="$(mktemp -d)"
cleanup() {
    local status=$?
    set +e
    local installed=()
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null | grep -qv '^not-installed$' && installed+=("$package")
    done
    [ ${#installed[@]} -eq 0 ] || "${as_root[@]}" dpkg --purge "${installed[@]}" >/dev/null
    [ "$user_existed" = 1 ] || ! getent passwd motiond >/dev/null || "${as_root[@]}" deluser --system --quiet motiond 2>/dev/null
    [ "$group_existed" = 1 ] || ! getent group motion >/dev/null || "${as_root[@]}" delgroup --system --quiet motion
    rm -rf "$work"
    exit $status
}
trap cleanup EXIT
fail() { echo "error: $*" >&2; exit 1; }

# --- build ------------------------------------------------------------------------------------
# A copy of the checkout's files (committed or not, ignored ones such as .build excluded), so
# dpkg-buildpackage's output and debian/.build stay out of the tree.
output="${OCM_DEB_PREBUILT:-$work}"
if [ -z "${OCM_DEB_PREBUILT:-}" ]; then
    source="$work/opencoremotion-$version"
    mkdir -p "$source"
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        [ -e "$file" ] || [ -L "$file" ] && printf '%s\0' "$file"
    done | tar -c --null -T - | tar -x -C "$source"
    echo "== dpkg-buildpackage -b -us -uc (log: build.log)"
    started=$SECONDS
    if ! (cd "$source" && timeout "${OCM_DEB_BUILD_TIMEOUT:-1800}" dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then
        tail -n 60 "$work/build.log"
        fail "dpkg-buildpackage failed"
    fi
    echo "built in $((SECONDS - started)) s:"
fi
changes="$(ls "$output"/opencoremotion_"$version"_*.changes)"
debs=()
for package in "${packages[@]}"; do
    deb="$(ls "$output/${package}_${version}_"*.deb)"
    debs+=("$deb")
    printf '  %-50s %6d KiB\n' "$(basename "$deb")" $(($(stat -c %s "$deb") / 1024))
done

# --- lintian ------------------------------------------------------------------------------------
echo "== lintian $(basename "$changes")"
lintian --fail-on error "$changes" | tee "$work/lintian.log" || fail "lintian reports errors (above)"
grep -q '^W: ' "$work/lintian.log" && echo "lintian warnings: $(grep -c '^W: ' "$work/lintian.log") (above)"
echo "lintian: no errors"

# --- install ------------------------------------------------------------------------------------
echo "== dpkg -i ${packages[*]}"
if ! "${as_root[@]}" dpkg -i "${debs[@]}"; then
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -f -y -qq --no-install-recommends
fi
for package in "${packages[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$package")" = installed ] || fail "$package is not installed"
done
for package in "${packages[@]}"; do dpkg -L "$package"; done | sort -u >"$work/files"
getent passwd motiond >/dev/null || fail "no user motiond after installing motiond"
[ "$(id -gn motiond)" = motion ] || fail "motiond's primary group is $(id -gn motiond), not motion"
[ "$(stat -c %U:%G "/var/lib/opencoremotion/calibration")" = motiond:motion ] || fail "/var/lib/opencoremotion/calibration is not motiond's"
[ -f /etc/opencoremotion/policy ] && grep -qx /etc/opencoremotion/policy /var/lib/dpkg/info/motiond.conffiles \
    || fail "/etc/opencoremotion/policy is not a conffile of motiond"
unit="$(grep -E '/systemd/system/motiond.service$' "$work/files")" || fail "motiond.service is not installed"
grep -q '^ExecStart=/usr/sbin/motiond ' "$unit" || fail "$unit does not start /usr/sbin/motiond"
grep -qE '/udev/rules.d/60-opencoremotion.rules$' "$work/files" || fail "the udev rules are not installed"

# --- the C library, through pkg-config, as a user builds against it ------------------------------
echo "== C program against the installed library"
readelf -d /usr/lib/libopencoremotion.so.0 | grep -q 'SONAME.*\[libopencoremotion.so.0\]' || fail "no soname libopencoremotion.so.0"
if ldd /usr/lib/libopencoremotion.so.0 /usr/bin/motionctl /usr/sbin/motiond | grep -i swift; then
    fail "an installed binary needs a Swift runtime library (above)"
fi
# shellcheck disable=SC2046  # pkg-config's flags are meant to split
gcc -std=c11 -Wall -Wextra -Werror Tests/CLibrary/device_motion_example.c -o "$work/device_motion_example" \
    $(pkg-config --cflags --libs opencoremotion)
# /lib is /usr/lib on a merged-/usr system: ldconfig's cache may name either.
loaded="$(ldd "$work/device_motion_example" | awk '$1 == "libopencoremotion.so.0" {print $3}')"
[ -n "$loaded" ] && [ "$(realpath "$loaded")" = "$(realpath /usr/lib/libopencoremotion.so.0)" ] || fail "the program loads '$loaded', not /usr/lib/libopencoremotion.so.0"
# The simulated MPU-9250 named only by its file name, run outside the checkout: board and
# recording are found under /usr/share/opencoremotion, from the library's prefix.
mkdir "$work/scratch"
(cd "$work/scratch" && OPENCOREMOTION_BOARD=sim-mpu-9250.board OPENCOREMOTION_NO_DAEMON=1 "$work/device_motion_example") \
    || fail "device_motion_example failed on the installed library"

# --- a Swift app, as an iOS developer writes it, on the system's board ---------------------------
# The app links OpenCoreMotion in statically; copied out of the build folder, it has no board
# files of its own prefix, so what it finds comes from the installed packages and /etc.
if [ -n "$swift_app" ]; then
    echo "== Swift app ($(basename "$swift_app"), CMMotionManager()) on the board /etc/opencoremotion/board names"
    cp "$swift_app" "$work/scratch/tilt-steering"
    app() { (cd "$work/scratch" && env -u OPENCOREMOTION_BOARD -u OPENCOREMOTION_CONFIG_DIR OPENCOREMOTION_NO_DAEMON=1 ./tilt-steering); }
    [ ! -e /etc/opencoremotion/board ] || fail "/etc/opencoremotion/board exists before any configuration"
    # Unconfigured, with no IMU on any I2C bus here: an error that says what to do, never
    # simulated data.
    if app >"$work/app.out" 2>"$work/app.err"; then
        cat "$work/app.out"; fail "tilt-steering ran with no board configured and no IMU (above)"
    fi
    grep -q 'motionctl probe' "$work/app.err" || { cat "$work/app.err"; fail "tilt-steering's error does not say to run motionctl probe (above)"; }
    echo "unconfigured: $(head -c 200 "$work/app.err")…"
    # Configured as `sudo motionctl probe --write` leaves it (here a copy of an installed
    # simulated board, whose recording is found under /usr/share/opencoremotion).
    "${as_root[@]}" cp /usr/share/opencoremotion/boards/sim-mpu-9250.board /etc/opencoremotion/board
    app >"$work/app.out" 2>"$work/app.err" || { cat "$work/app.out" "$work/app.err"; fail "tilt-steering failed on the configured board (above)"; }
    updates="$(grep -c 'steering' "$work/app.out" || true)"
    [ "$updates" -ge 20 ] || { cat "$work/app.out" "$work/app.err"; fail "tilt-steering printed $updates updates in 5 s at 5 Hz, not 20 or more (above)"; }
    echo "configured: $updates updates, the last: $(tail -n 1 "$work/app.out")"
    "${as_root[@]}" rm /etc/opencoremotion/board
else
    echo "(no Swift app given: the system's board from a Swift app is not tested)"
fi

# --- motionctl and motiond from /usr ----------------------------------------------------------
echo "== /usr/bin/motionctl"
[ "$(command -v motionctl)" = /usr/bin/motionctl ] || echo "note: motionctl on PATH is $(command -v motionctl)"
[ "$(/usr/bin/motionctl --version)" = "${version%%-*}" ] || fail "motionctl --version says $(/usr/bin/motionctl --version), not $version"
(cd "$work/scratch" && /usr/bin/motionctl info /usr/share/opencoremotion/Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz) \
    || fail "motionctl info failed"
/usr/sbin/motiond --help >/dev/null || fail "motiond --help failed"
man -w motionctl >/dev/null 2>&1 || [ -f /usr/share/man/man1/motionctl.1.gz ] || fail "no manual page for motionctl"
if command -v systemd-analyze >/dev/null; then
    echo "== systemd-analyze verify $unit"
    # Other units' problems on this machine are not ours: only lines naming motiond fail.
    systemd-analyze verify "$unit" >"$work/verify.log" 2>&1 || true
    cat "$work/verify.log"
    if grep -i 'motiond' "$work/verify.log" | grep -qiv 'Cannot add dependency job'; then fail "systemd-analyze verify reports problems in motiond.service"; fi
else
    echo "(no systemd-analyze here: unit not verified)"
fi

# --- purge: nothing left --------------------------------------------------------------------------
echo "== dpkg --purge ${packages[*]}"
# The system's board file as `sudo motionctl probe --write` leaves it: purge removes it too.
"${as_root[@]}" cp /usr/share/opencoremotion/boards/sim-mpu-9250.board /etc/opencoremotion/board
"${as_root[@]}" dpkg --purge "${packages[@]}"
left=0
while IFS= read -r path; do
    [ -e "$path" ] || [ -L "$path" ] || continue
    if [ -d "$path" ]; then
        # A shared folder (/usr/lib, /etc/systemd/system, /lib as a link to usr/lib...) may stay
        # if another package owns it or it holds files of others; an empty one that nobody owns
        # should have gone.
        dpkg -S "$path" >/dev/null 2>&1 && continue
        [ -n "$(ls -A "$path")" ] && continue
    fi
    echo "left after purge: $path" >&2; left=1
done <"$work/files"
for path in /etc/opencoremotion /var/lib/opencoremotion /run/opencoremotion /usr/share/opencoremotion \
    /etc/systemd/system/multi-user.target.wants/motiond.service /var/lib/systemd/deb-systemd-helper-enabled/motiond.service; do
    if [ -e "$path" ] || [ -L "$path" ]; then echo "left after purge: $path" >&2; left=1; fi
done
for package in "${packages[@]}"; do
    if compgen -G "/var/lib/dpkg/info/$package.*" >/dev/null || compgen -G "/var/lib/dpkg/info/$package:*" >/dev/null; then
        echo "left after purge: dpkg's files of $package" >&2; left=1
    fi
done
[ "$left" = 0 ] || fail "files of the packages are left after purge (above)"
# The user and group stay, as motiond.postrm says (Debian's practice for system accounts);
# cleanup removes them if this test created them.
getent passwd motiond >/dev/null || fail "user motiond was removed on purge; motiond.postrm says it stays"
getent group motion >/dev/null || fail "group motion was removed on purge; motiond.postrm says it stays"
echo "purged: no file left; user motiond and group motion kept as documented"
echo "Debian packages: OK"
