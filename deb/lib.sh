# Shared by deb/make-deb.sh and deb/pi-check.sh (sourced, not run): Debian
# bookworm roots of another architecture, made with debootstrap and run under
# qemu-user-static through binfmt_misc.
#
# Roots live in build/roots/: bookworm-ARCH is the clean debootstrap (made once,
# never changed after, so later checks start from it without a download);
# copies of it are what builds and checks change.

ROOTS=${ROOTS:-build/roots}
SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

warn() { printf 'WARNING: %s\n' "$*" >&2; }
say() { printf '== %s\n' "$*"; }

# What `uname -m` says on ARCH (Debian's name): the binfmt entry and wheel tag.
machine_of() {
    case "$1" in
        amd64) echo x86_64 ;;
        arm64) echo aarch64 ;;
        armhf) echo armv7l ;;
        *) return 1 ;;
    esac
}

# qemu's binfmt name for ARCH (empty: the build machine runs it itself).
qemu_of() {
    [ "$1" = "$(dpkg --print-architecture)" ] && return 0
    case "$1" in
        arm64) echo qemu-aarch64 ;;
        armhf) echo qemu-arm ;;
        amd64) echo qemu-x86_64 ;;
    esac
}

# Why roots of ARCH cannot be made here, or nothing when they can.
roots_missing() {
    [ "$(id -u)" = 0 ] || { echo "this is not root (debootstrap and chroot need root)"; return; }
    command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install debootstrap)"; return; }
    local q
    q=$(qemu_of "$1")
    [ -z "$q" ] && return
    command -v "$q-static" >/dev/null ||
        { echo "$q-static is not installed (apt-get install qemu-user-static binfmt-support)"; return; }
    command -v update-binfmts >/dev/null ||
        { echo "update-binfmts is not installed (apt-get install binfmt-support)"; return; }
}

# Let the kernel run ARCH's programs through qemu: binfmt_misc mounted and
# qemu's entry enabled (qemu-user-static registers it with the F flag, so a
# chroot needs no copy of qemu inside).
enable_binfmt() {
    local q
    q=$(qemu_of "$1")
    [ -z "$q" ] && return 0
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
            { warn "cannot mount binfmt_misc: $1 programs cannot run here"; return 1; }
    fi
    if ! grep -qx enabled "/proc/sys/fs/binfmt_misc/$q" 2>/dev/null; then
        update-binfmts --enable "$q" >/dev/null ||
            { warn "update-binfmts --enable $q failed: $1 programs cannot run here"; return 1; }
    fi
}

# The clean root of ARCH (its path in BASE), made by debootstrap the first time
# (minbase: what apt needs, no more; the package's own dependencies come with it).
base_root() {
    BASE="$ROOTS/$SUITE-$1"
    [ -e "$BASE/.complete" ] && return 0
    remove_root "$BASE" || return 1
    mkdir -p "$ROOTS"
    say "debootstrap $SUITE $1 into $BASE (minutes; made once, then copied)"
    debootstrap --variant=minbase --arch="$1" "$SUITE" "$BASE" "$MIRROR" \
        >"$BASE.log" 2>&1 || { unmount_under "$BASE"; tail -20 "$BASE.log" >&2; return 1; }
    # debootstrap may leave the root's /proc mounted (seen with armhf)
    unmount_under "$BASE"
    touch "$BASE/.complete"
}

# A fresh copy of ARCH's clean root at DIR.
copy_root() {
    base_root "$1" || return 1
    remove_root "$2" || return 1
    cp -ax "$BASE" "$2"
    rm -f "$2/.complete"
}

# Remove a root, refusing while anything is mounted inside it.
remove_root() {
    [ -e "$1" ] || return 0
    if findmnt -rn -o TARGET | grep -q "^$(realpath "$1")/"; then
        warn "$1 still has file systems mounted inside: not removed"
        return 1
    fi
    rm -rf --one-file-system "$1"
}

# Run a command inside root DIR, with /proc, /dev and /dev/pts (the simulated
# board's serial link is a pty) and the build machine's DNS; unmounted after.
in_root() {
    local dir=$1 status=0
    shift
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    mount -t proc proc "$dir/proc"
    mount --bind /dev "$dir/dev"
    mount --bind /dev/pts "$dir/dev/pts"
    # no daemon may start inside the root while packages install
    printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
    chmod 755 "$dir/usr/sbin/policy-rc.d"
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
        DEBIAN_FRONTEND=noninteractive chroot "$dir" "$@" || status=$?
    # lazily: a process of the command may still be ending
    umount -l "$dir/dev/pts" "$dir/dev" "$dir/proc"
    return $status
}

# Unmount whatever is still mounted inside the roots (a run interrupted in a
# chroot): the EXIT trap of every script that uses in_root.
unmount_roots() {
    unmount_under "$ROOTS"
}

# Unmount every file system mounted below DIR, deepest first.
unmount_under() {
    local top
    top=$(realpath -m "$1")
    { findmnt -rn -o TARGET | grep "^$top/" | sort -r | while read -r m; do umount -l "$m"; done; } || true
}
