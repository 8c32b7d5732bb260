#!/usr/bin/env bash
# A local `debian:12` base image for podman, made from Debian's archive with
# mmdebstrap (no registry needed): what the official image holds (variant minbase).
#   bash containers/build_debian_base.sh [TARBALL]      # as root; needs mmdebstrap, podman
# then `podman build --pull=never -f containers/Dockerfile -t parlab .` uses it.
# The same tarball, unpacked, is a minimal Debian 12 root for a chroot
# (bench/quick_start.sh --rootfs).
set -euo pipefail
tarball=${1:-/tmp/debian12-minbase.tar}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
mmdebstrap --variant=minbase --components=main \
  bookworm "$tarball" "deb $mirror bookworm main" "deb $mirror bookworm-updates main"
podman import --change 'CMD ["bash"]' "$tarball" docker.io/library/debian:12
echo "build_debian_base: $tarball imported as docker.io/library/debian:12"
