#!/usr/bin/env bash
# Builds and installs the C library:
#   PREFIX/lib/libopencoremotion.so.0.1.0 (+ .so.0 and .so links), PREFIX/include/opencoremotion.h,
#   PREFIX/lib/pkgconfig/opencoremotion.pc, PREFIX/share/opencoremotion/boards/*.board and the
#   recordings the simulated boards replay (PREFIX/share/opencoremotion/Tests/Recordings/)
# Usage: tools/install-c-library.sh [PREFIX]   (default /usr/local; run as root for system prefixes)
# DESTDIR=DIR stages the files under DIR (DIR/PREFIX/...) with PREFIX in the .pc file, for packaging
# (debian/rules); OCM_C_LIBRARY_SCRATCH names the build folder (default .build-c-library).
# The Swift runtime is linked in statically (-static-stdlib): the library needs only libc, libm,
# libstdc++, libgcc_s and the Debian libraries it binds (zlib, libi2c, libiio) at run time, and
# exports only the ocm_* functions.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
scratch="${OCM_C_LIBRARY_SCRATCH:-.build-c-library}"
for candidate in "${SWIFT_BIN:-}" /opt/swift/usr/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/swift" ]; then PATH="$candidate:$PATH"; fi
done

version="$(sed -n 's/^#define OCM_VERSION_STRING "\(.*\)"$/\1/p' Sources/COpenCoreMotion/include/opencoremotion.h)"
major="${version%%.*}"
swift build -c release --product opencoremotion --scratch-path "$scratch" \
    -Xswiftc -static-stdlib \
    -Xlinker "-soname=libopencoremotion.so.$major" \
    -Xlinker "--version-script=$PWD/Sources/COpenCoreMotion/exports.map"
built="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/libopencoremotion.so"

destination="${DESTDIR:-}$prefix"
install -d "$destination/lib/pkgconfig" "$destination/include"
install -m 0755 "$built" "$destination/lib/libopencoremotion.so.$version"
ln -sf "libopencoremotion.so.$version" "$destination/lib/libopencoremotion.so.$major"
ln -sf "libopencoremotion.so.$major" "$destination/lib/libopencoremotion.so"
install -m 0644 Sources/COpenCoreMotion/include/opencoremotion.h "$destination/include/opencoremotion.h"
cat >"$destination/lib/pkgconfig/opencoremotion.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: opencoremotion
Description: Core Motion for Linux boards: device motion, pedometer, activity, recordings
Version: $version
Libs: -L\${libdir} -lopencoremotion
Requires.private: zlib libiio libmosquitto
Libs.private: -li2c
Cflags: -I\${includedir}
PC
# Board files, found from the library's own prefix (BoardLocations: never from this checkout),
# and the recordings simulated boards name, at the same path relative to the boards' parent
# folder as here, where a board's relative `motion` path starts.
data="$destination/share/opencoremotion"
install -d "$data/boards"
install -m 0644 boards/*.board boards/README.md "$data/boards/"
sed -n 's/^motion *= *\([^ #]*\).*/\1/p' boards/*.board | grep -v '^synthetic:' | sort -u | while read -r recording; do
    install -D -m 0644 "$recording" "$data/$recording"
done
# A system prefix: refresh the dynamic linker's cache so programs find the new library.
if [ -z "${DESTDIR:-}" ] && [ "$(id -u)" -eq 0 ] && { [ "$prefix" = /usr/local ] || [ "$prefix" = /usr ]; }; then ldconfig; fi
echo "installed opencoremotion $version into $destination"
