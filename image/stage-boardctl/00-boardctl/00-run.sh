#!/bin/bash -e
# pi-gen, on the build machine: put the boardctl package, and the board's files
# if given, where the chroot step finds them. files/ holds (image/README.md):
#   boardctl_VERSION_ARCH.deb  from `make deb`, of the image's architecture (one);
#   boardctl.toml              optional: the board's /etc/boardctl/boardctl.toml;
#   board.env                  optional: the interfaces the board needs (board.env.example).
shopt -s nullglob
debs=(files/boardctl_*.deb)
if [ "${#debs[@]}" -ne 1 ]; then
    echo "stage-boardctl: put exactly one boardctl_*.deb into $(pwd)/files (found ${#debs[@]})" >&2
    exit 1
fi
install -d "${ROOTFS_DIR}/tmp/boardctl"
install -m 644 "${debs[0]}" "${ROOTFS_DIR}/tmp/boardctl/"
for optional in boardctl.toml board.env; do
    if [ -e "files/$optional" ]; then
        install -m 644 "files/$optional" "${ROOTFS_DIR}/tmp/boardctl/"
    fi
done
