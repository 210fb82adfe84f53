#!/usr/bin/env bash
# The Python package (bindings/python) as a user gets it: builds the C library into a temporary
# prefix, installs the package from the checkout with pip into a virtual environment of Debian's
# Python (its python3-numpy and python3-pytest visible), and runs the package's tests against
# that library, with the real motiond for the sensor recorder's tests and motionctl for the
# pictures of a real replay (`motionctl plot`). About a minute and a half.
# Usage: tools/test-python.sh [MOTIOND [MOTIONCTL]]   (default: the debug builds, built here if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
for candidate in "${SWIFT_BIN:-}" /opt/swift/usr/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/swift" ]; then PATH="$candidate:$PATH"; fi
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tools/install-c-library.sh "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
motiond="${1:-}"
motionctl="${2:-}"
for product in motiond motionctl; do
    if [ -z "${!product}" ]; then
        swift build --product "$product" >"$work/$product.log" 2>&1 || { cat "$work/$product.log"; exit 1; }
        printf -v "$product" '%s' "$(swift build --show-bin-path)/$product"
    fi
done

# Debian's interpreter (the one a Raspberry Pi OS user has), else whatever python3 is on PATH.
python=/usr/bin/python3
[ -x "$python" ] || python="$(command -v python3)"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check ./bindings/python
installed="$("$work/venv/bin/python" -c 'import opencoremotion; print(opencoremotion.__file__)')"
case "$installed" in
    "$work/venv/"*) echo "opencoremotion installed by pip: $installed" ;;
    *) echo "error: the tests would import $installed, not the package pip installed" >&2; exit 1 ;;
esac

OPENCOREMOTION_LIBRARY="$work/prefix/lib/libopencoremotion.so.0" OPENCOREMOTION_MOTIOND="$motiond" OPENCOREMOTION_MOTIONCTL="$motionctl" \
    "$work/venv/bin/python" -m pytest -q -p no:cacheprovider bindings/python/tests
