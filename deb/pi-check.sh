#!/usr/bin/env bash
# deb/pi-check.sh (make pi-check): the arm64 package (ARCH=armhf: the armhf one;
# ARCH=amd64: the build machine's, natively), installed and used in a clean
# Debian bookworm root of its architecture (Raspberry Pi OS's base) under
# qemu-user-static: boardctl --version, profile check on every shipped profile,
# sim --demo of every game with a demo, the daemon's start to READY=1
# (bench/daemon.py), an upgrade and a purge. Builds the package first if
# build/deb has none. Without root, debootstrap or qemu-user-static it prints a
# WARNING and checks nothing. Figures: build/pi-check.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
. deb/lib.sh

ARCH=${ARCH:-arm64}
PYTHON=${PYTHON:-python3}
T0=$(date +%s)
why=$(roots_missing "$ARCH")
if [ -n "$why" ]; then
    warn "make pi-check skipped: $why"
    exit 0
fi
enable_binfmt "$ARCH" || { warn "make pi-check skipped: $ARCH programs cannot run here"; exit 0; }
trap unmount_roots EXIT

made_base=no
[ -e "$ROOTS/$SUITE-$ARCH/.complete" ] || made_base=yes
# a Debian mirror out of reach is this machine's trouble, not the package's
if ! base_root "$ARCH"; then
    warn "make pi-check skipped: debootstrap could not make the $ARCH root (see above)"
    exit 0
fi
T_BASE=$(date +%s)

version=$($PYTHON deb/build.py --print-version)
deb=build/deb/boardctl_${version}_$ARCH.deb
[ -e "$deb" ] || bash deb/make-deb.sh "$ARCH"
[ -e "$deb" ] || { echo "pi-check: $deb was not built" >&2; exit 1; }
T_DEB=$(date +%s)

root=$ROOTS/check-$ARCH
copy_root "$ARCH" "$root"
mkdir -p "$root/tmp/deb"
cp "$deb" "$root/tmp/deb/"
# the next version, for the upgrade: the same files, a higher Version
work=$(mktemp -d)
dpkg-deb -R "$deb" "$work/tree"
sed -i "s/^Version: .*/&+check1/" "$work/tree/DEBIAN/control"
echo "${version}+check1" >"$work/tree/opt/boardctl/wheels/VERSION"
dpkg-deb --root-owner-group -Zxz -b "$work/tree" "$root/tmp/deb/upgrade.deb" >/dev/null
rm -rf "$work"
cp bench/daemon.py "$root/tmp/bench_daemon.py"
cp deb/pi-check-inside.sh "$root/tmp/"

say "pi-check: boardctl $version on $SUITE $ARCH ($root)"
status=0
in_root "$root" sh /tmp/pi-check-inside.sh "$version" || status=$?
T_END=$(date +%s)
passed=$(wc -l <"$root/tmp/passed")
if [ "$status" != 0 ]; then
    echo "pi-check: $passed passed, 1 failed (the root stays for a look: $root)"
    exit 1
fi

figures=build/pi-check.txt
qemu=$(qemu_of "$ARCH")
if [ -n "$qemu" ]; then runs_on=$("$qemu-static" --version | head -1); else runs_on="natively"; fi
{
    echo "pi-check of boardctl_${version}_$ARCH.deb, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $runs_on"
    echo "whole check: $((T_END - T0)) s (debootstrap made this run: $made_base, $((T_BASE - T0)) s; package $((T_DEB - T_BASE)) s)"
    awk '{ printf "%s: %.2f s\n", $1, $2 }' "$root/tmp/figures"
} >"$figures"
cat "$figures"
remove_root "$root"
echo "pi-check: $passed passed, 0 failed"
