#!/usr/bin/env bash
# Level 2 (../shared/specs/hil-testing.md): our Swift code against Debian's real kernel under
# QEMU (TCG). The kernel's own IIO drivers bind to chips emulated by i2c-stub (register maps
# preloaded byte by byte), hrtimer triggers fill their buffers, gpio-sim makes data-ready edges,
# and the guest binary (Tests/KernelLevel, `ocm-kernel-tests`) checks what our LinuxIIO,
# LinuxGPIO and LinuxI2C code make of them, printing `N passed, N failed`.
#
# Usage: tools/test-kernel-qemu.sh PATH/TO/ocm-kernel-tests
#   build it with: swift build -c release --product ocm-kernel-tests -Xswiftc -static-stdlib
#
# On Debian 12 it installs what is missing (apt), downloads (never installs) the current
# linux-image-amd64 kernel and the linux-source of that exact version, builds the modules
# Debian's config switches off out of tree, and boots. Everything reusable is cached in
# $OCM_KERNEL_CACHE (default ~/.cache/opencoremotion-kernel), keyed by kernel ABI and package
# version, so a warm run only rebuilds the initramfs and boots. $OCM_KERNEL_TIMEOUT (seconds,
# default 240) bounds the boot: QEMU is killed after it and the run fails.
set -euo pipefail
guest="${1:?usage: $0 PATH/TO/ocm-kernel-tests (swift build -c release --product ocm-kernel-tests -Xswiftc -static-stdlib)}"
[ -x "$guest" ] || { echo "error: $guest is not an executable: build it with swift build -c release --product ocm-kernel-tests -Xswiftc -static-stdlib" >&2; exit 2; }
guest="$(cd "$(dirname "$guest")" && pwd)/$(basename "$guest")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${OCM_KERNEL_CACHE:-$HOME/.cache/opencoremotion-kernel}"
boot_timeout="${OCM_KERNEL_TIMEOUT:-240}"

started="$(date +%s.%N)"
step_start="$started"
# step NAME: prints how long the previous step took, for the cold/warm timings in CI logs.
step() {
    local now; now="$(date +%s.%N)"
    awk -v name="$1" -v now="$now" -v start="$step_start" 'BEGIN { printf "==> %s (previous step %.1f s)\n", name, now - start }'
    step_start="$now"
}
as_root=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root or sudo for apt-get" >&2; exit 1; }
    as_root=(sudo)
fi

# --- Debian packages and the kernel version ---------------------------------------------------
step "resolving the kernel version"
# The ABI name (6.1.0-56-amd64) moves with security updates: resolve it now, and pin headers,
# image and source to that version (the cache key follows it).
resolve() {
    KPKG="$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')"
    KREL="${KPKG#linux-image-}"
    KVER="$(apt-cache policy "$KPKG" 2>/dev/null | awk '/Candidate:/ { print $2 }')"
}
resolve
if [ -z "$KPKG" ] || [ -z "$KVER" ] || [ "$KVER" = "(none)" ]; then
    "${as_root[@]}" apt-get update -qq
    resolve
fi
[ -n "$KPKG" ] && [ -n "$KVER" ] || { echo "error: apt knows no linux-image-amd64: is this Debian 12 with its main archive in sources.list?" >&2; exit 1; }
SRCPKG="linux-source-$(echo "$KREL" | cut -d. -f1,2)"   # linux-source-6.1
echo "kernel $KPKG $KVER ($SRCPKG)"
# Host tools: QEMU, the guest's shell and i2cset (busybox-static), the initramfs and module
# tools, and what building modules against linux-headers needs. The guest binary's own
# libraries (libiio0, libi2c0, libgpiod2) come with the -dev packages it was built against.
packages=(qemu-system-x86 busybox-static cpio kmod xz-utils gcc make libc6-dev "linux-headers-$KREL")
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    step "installing Debian packages: ${missing[*]}"
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- Kernel, out-of-tree modules and the module closure (cached) ------------------------------
cache="$cache_root/${KREL}_${KVER}"
# The modules the guest loads (modprobe resolves their dependencies into the closure).
guest_modules=(i2c-dev i2c-stub i2c-stub-rdwr configfs industrialio-configfs iio-trig-hrtimer iio-trig-sysfs
    gpio-sim bmp280-i2c bmi160_i2c st_lsm6dsx_i2c inv-mpu6050-i2c st_magn_i2c hmc5843_i2c)
stamp="${guest_modules[*]} $(cat "$here/kernel-level/Kbuild" "$here/kernel-level/"*.c | md5sum | cut -c1-32)"
run_kind=warm
if [ ! -f "$cache/ready" ] || [ "$(cat "$cache/ready")" != "$stamp" ]; then
    run_kind=cold
    step "cold: downloading $KPKG and $SRCPKG $KVER"
    rm -rf "$cache"
    work="$cache/work"
    mkdir -p "$work/build"
    # apt-get download writes to the current folder as the _apt user, who cannot enter a home
    # folder: download into a world-writable temporary folder, then move.
    debs="$(mktemp -d)"
    chmod 777 "$debs"
    (cd "$debs" && apt-get download -q "$KPKG=$KVER" "$SRCPKG=$KVER" >/dev/null)
    mv "$debs" "$work/debs"

    step "cold: unpacking the kernel image and the needed sources"
    dpkg-deb -x "$work/debs/${KPKG}_"*.deb "$work/image"
    sources=(drivers/iio/industrialio-configfs.c drivers/iio/industrialio-sw-trigger.c
        drivers/iio/trigger/iio-trig-hrtimer.c drivers/iio/trigger/iio-trig-sysfs.c
        drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c drivers/i2c/i2c-stub.c
        scripts/extract-vmlinux)
    mkdir -p "$work/src"
    dpkg-deb --fsys-tarfile "$work/debs/${SRCPKG}_"*.deb | tar -xO "./usr/src/$SRCPKG.tar.xz" |
        tar -xJ -C "$work/src" --strip-components=1 --wildcards "${sources[@]/#/*/}"

    step "cold: building the out-of-tree modules against linux-headers-$KREL"
    build="$work/build"
    for file in "${sources[@]}"; do
        case "$file" in scripts/*|drivers/i2c/i2c-stub.c) ;; *) cp "$work/src/$file" "$build/" ;; esac
    done
    cp "$here/kernel-level/Kbuild" "$here/kernel-level/irq-sim-mod.c" "$build/"
    # irq_to_desc is not exported to modules in 6.1; reach the descriptor through irq_data.
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/handle_simple_irq(irq_data_to_desc(irq_get_irq_data(irqnum)))/' "$build/irq_sim.c"
    grep -q 'irq_data_to_desc(irq_get_irq_data(irqnum))' "$build/irq_sim.c" ||
        { echo "error: kernel/irq/irq_sim.c changed: update the irq_to_desc patch in $0" >&2; exit 1; }
    # i2c-stub-rdwr: i2c-stub plus plain I2C transfers (I2C_FUNC_I2C, .master_xfer) under its
    # own adapter name, so our I2C_RDWR path meets a real i2c-dev (stock i2c-stub is SMBus only).
    sed -e 's/#define STUB_FUNC_DEFAULT \\/#define STUB_FUNC_DEFAULT I2C_FUNC_I2C | \\/' \
        -e 's/"SMBus stub driver"/"I2C stub driver (RDWR)"/' \
        -e 's/\.smbus_xfer\t= stub_xfer,/.smbus_xfer\t= stub_xfer,\n\t.master_xfer\t= stub_master_xfer,/' \
        -e '/^static u32 stub_func(/e cat '"$here"'/kernel-level/stub-master-xfer.c; echo' \
        "$work/src/drivers/i2c/i2c-stub.c" >"$build/i2c-stub-rdwr.c"
    for expected in 'STUB_FUNC_DEFAULT I2C_FUNC_I2C' 'I2C stub driver (RDWR)' 'master_xfer	= stub_master_xfer' 'static int stub_master_xfer'; do
        grep -qF "$expected" "$build/i2c-stub-rdwr.c" ||
            { echo "error: drivers/i2c/i2c-stub.c changed ('$expected' not applied): update the i2c-stub-rdwr edits in $0" >&2; exit 1; }
    done
    make -s -C "/lib/modules/$KREL/build" M="$build" -j"$(nproc)" modules 2>&1 | grep -v -e 'Skipping BTF generation' -e '^$' || true
    mkdir -p "$work/image/lib/modules/$KREL/extra"
    for module in industrialio-configfs industrialio-sw-trigger iio-trig-hrtimer iio-trig-sysfs irq-sim gpio-sim i2c-stub-rdwr; do
        [ -f "$build/$module.ko" ] || { echo "error: $module.ko was not built (see the make output above)" >&2; exit 1; }
        cp "$build/$module.ko" "$work/image/lib/modules/$KREL/extra/"
    done
    depmod -b "$work/image" "$KREL"

    step "cold: vmlinux (PVH entry: 3x faster to boot under TCG than vmlinuz) and the module closure"
    sh "$work/src/scripts/extract-vmlinux" "$work/image/boot/vmlinuz-$KREL" >"$cache/vmlinux"
    modroot="$cache/modroot"
    for module in "${guest_modules[@]}"; do
        modprobe -d "$work/image" -S "$KREL" --show-depends "$module" | awk '$1 == "insmod" { print $2 }'
    done | sort -u | while read -r path; do
        relative="${path#"$work/image"}"
        mkdir -p "$modroot$(dirname "$relative")"
        cp "$path" "$modroot$relative"
    done
    cp "$work/image/lib/modules/$KREL/"modules.{order,builtin,builtin.modinfo} "$modroot/lib/modules/$KREL/"
    depmod -b "$modroot" "$KREL"
    # Only vmlinux and the closure are kept (~80 MB instead of ~700 MB with debs and image).
    rm -rf "$work"
    echo "$stamp" >"$cache/ready"
else
    echo "warm: kernel, modules and closure cached in $cache"
fi

# --- initramfs --------------------------------------------------------------------------------
step "building the initramfs"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
rootfs="$root/rootfs"
mkdir -p "$rootfs"/{bin,sbin,dev,proc,sys,tmp,lib,lib64,usr/lib}
cp /bin/busybox "$rootfs/bin/busybox"
# One symlink per applet; never one named busybox over the binary itself (ELOOP at /init).
for applet in $(/bin/busybox --list); do
    [ "$applet" = busybox ] || ln -s busybox "$rootfs/bin/$applet"
done
cp -a "$cache/modroot/lib/modules" "$rootfs/lib/"
cp "$guest" "$rootfs/bin/ocm-kernel-tests"
# The guest binary's library closure (glibc, libstdc++, libiio with libxml2/ICU, libi2c, libgpiod).
ldd "$guest" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }' | while read -r library; do
    mkdir -p "$rootfs$(dirname "$library")"
    cp -L "$library" "$rootfs$library"
done
cp "$here/kernel-level/init.sh" "$rootfs/init"
chmod +x "$rootfs/init"
# Uncompressed: gzip would cost more to undo under TCG than the copy of the bytes does.
(cd "$rootfs" && find . | cpio -o -H newc --quiet) >"$root/initrd.cpio"
echo "initramfs $(du -m "$root/initrd.cpio" | cut -f1) MB"

# --- boot -------------------------------------------------------------------------------------
step "booting $KREL under QEMU (TCG), at most $boot_timeout s"
# /dev/kvm may exist on CI without vmx/svm, and -accel kvm then hangs: TCG, always.
status=0
timeout --kill-after=10 "$boot_timeout" qemu-system-x86_64 -accel tcg -m 1024 -nographic -no-reboot \
    -kernel "$cache/vmlinux" -initrd "$root/initrd.cpio" \
    -append 'console=ttyS0 panic=-1 quiet loglevel=4' </dev/null 2>&1 | tr -d '\r' | tee "$root/serial.log" | sed 's/^/  guest: /' || status=$?
step "done"
elapsed="$(awk -v now="$(date +%s.%N)" -v start="$started" 'BEGIN { print now - start }')"
summary="$(grep -aE '^[0-9]+ passed, [0-9]+ failed$' "$root/serial.log" | tail -1 || true)"
if [ -z "$summary" ]; then
    if ((status == 124 || status == 137)); then
        echo "error: the guest did not finish within $boot_timeout s (OCM_KERNEL_TIMEOUT); its console is above" >&2
    else
        echo "error: the guest printed no 'N passed, N failed' line (QEMU exit $status); its console is above" >&2
    fi
    printf 'kernel-qemu: no result after %.1f s (%s run)\n' "$elapsed" "$run_kind"
    exit 1
fi
printf 'kernel-qemu (%s %s): %s in %.1f s (%s run; cache %s)\n' "$KREL" "$KVER" "$summary" "$elapsed" "$run_kind" "$(du -sh "$cache" | cut -f1)"
[[ "$summary" == *" 0 failed" ]]
