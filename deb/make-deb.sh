#!/usr/bin/env bash
# deb/make-deb.sh ARCH: boardctl's Debian package for ARCH (amd64, arm64, armhf)
# in build/deb/, with its wheelhouse in build/wheels/ARCH/.
#
# The wheelhouse is what the package installs from, with no network:
#   1. boardctl's own wheel (pure Python, built here);
#   2. every wheel it needs on ARCH, pinned by deb/constraints.txt and resolved
#      by pip running on ARCH: pip on another machine (`pip download --platform`)
#      cannot read the environment markers (lgpio is for ARM only) for ARCH.
#      On the build machine's own architecture that is this machine's Python
#      3.11; on another, a Debian bookworm root of ARCH under qemu-user-static
#      (build/roots/build-ARCH, made once and kept). pip takes the package
#      index's own wheels where there are some (lgpio for aarch64 and armv7l,
#      every pure-Python one) and builds those that have none (rpi-ws281x and
#      spidev publish only sources) with that root's gcc and Python 3.11.
# Without what a foreign ARCH needs (root, debootstrap, qemu-user-static), it
# prints a WARNING and makes no package for ARCH.
set -euo pipefail
cd "$(dirname "$0")/.."
. deb/lib.sh

ARCH=${1:?usage: deb/make-deb.sh ARCH}
PYTHON=${PYTHON:-python3}
OUT=build/deb
WHEELS=build/wheels/$ARCH
# what the package installs beside boardctl: spidev, for LEDs and shift registers on SPI
EXTRA="spidev pip"
machine_of "$ARCH" >/dev/null || { echo "deb/make-deb.sh: unknown architecture $ARCH" >&2; exit 2; }

if [ "$ARCH" = "$(dpkg --print-architecture 2>/dev/null)" ]; then
    $PYTHON -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || {
        warn "no $ARCH package: $PYTHON is not Python 3.11 (Debian 12's), so its wheels would not fit"
        exit 0
    }
    root=""
else
    why=$(roots_missing "$ARCH")
    if [ -n "$why" ]; then
        warn "no $ARCH package: $why"
        exit 0
    fi
    enable_binfmt "$ARCH" || { warn "no $ARCH package: $ARCH programs cannot run here"; exit 0; }
    trap unmount_roots EXIT
    root=$ROOTS/build-$ARCH
    if [ ! -e "$root/.ready" ]; then
        copy_root "$ARCH" "$root"
        say "installing Python 3.11 and gcc into $root, for the wheels that must be built"
        in_root "$root" sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends \
            python3-pip python3-dev gcc libc6-dev ca-certificates >/dev/null'
        touch "$root/.ready"
    fi
fi

say "boardctl $ARCH: wheelhouse $WHEELS"
rm -rf "$WHEELS"
mkdir -p "$WHEELS" "$OUT"
$PYTHON -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir "$WHEELS" .
own=$(cd "$WHEELS" && ls boardctl-*.whl)
if [ -z "$root" ]; then
    $PYTHON -m pip wheel --quiet --disable-pip-version-check --wheel-dir "$WHEELS" \
        -c deb/constraints.txt "$WHEELS/$own" $EXTRA
else
    rm -rf "$root/wheels"
    mkdir -p "$root/wheels"
    cp "$WHEELS/$own" deb/constraints.txt "$root/wheels/"
    # the build machine's certificates: a proxy's own authority may be among them
    cert=/etc/ssl/certs/ca-certificates.crt
    [ -e "$cert" ] && cp "$cert" "$root/wheels/build-host-ca.crt" ||
        cp "$root$cert" "$root/wheels/build-host-ca.crt"
    in_root "$root" env PIP_CERT=/wheels/build-host-ca.crt python3 -m pip wheel \
        --quiet --disable-pip-version-check \
        --wheel-dir /wheels -c /wheels/constraints.txt "/wheels/$own" $EXTRA
    cp "$root"/wheels/*.whl "$WHEELS/"
fi
$PYTHON deb/build.py --arch "$ARCH" --wheels "$WHEELS" --out "$OUT"
