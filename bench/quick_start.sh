#!/usr/bin/env bash
# Benchmark of the README's quick start (not a test): a fresh copy of this checkout's
# HEAD, cloned under /root in a fresh minimal Debian 12 container (the local
# docker.io/library/debian:12 made by containers/build_debian_base.sh), runs
#   1. bash containers/install-deps.sh && cmake --preset default && cmake --build build
#      && cmake --install build && grade lab01        (timed per part and in total)
#   2. a student's first `grade lab03` after it (the skeleton, in the simulator)
#   3. with --tests: cmake --build --preset tests && ctest --preset default
#      (--tests-regex R: only the tests whose names match R, to re-check a fix)
# and prints the figures for docs/performance.md (figure, seconds, machine, date).
# Usage, from the repository root, as root with podman:
#   bash bench/quick_start.sh [--tests] [--tests-regex R] [--jobs N]
# --jobs N caps the container to N CPUs (default 2, the 2 cores the timing targets assume).
# The container is --privileged: root on a real machine (CAP_SYS_ADMIN: cgroups, the
# run area, the bridge for a clone in /root). PARLAB_PODMAN_FLAGS adds host-specific
# flags (a VM with low rlimits and hybrid cgroups needed
# "--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096").
set -euo pipefail
cd "$(dirname "$0")/.."
with_tests=0
tests_regex=""
jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    --tests) with_tests=1 ;;
    --tests-regex) with_tests=1; tests_regex=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    *) echo "usage: bash bench/quick_start.sh [--tests] [--tests-regex R] [--jobs N]" >&2; exit 2 ;;
  esac
  shift
done
podman image exists docker.io/library/debian:12 ||
  { echo "no local debian:12 image: run bash containers/build_debian_base.sh first" >&2; exit 2; }
scratch=$(mktemp -d /tmp/parlab-quickstart.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
git archive --format=tar --prefix=parlab/ HEAD > "$scratch/parlab.tar"
cat > "$scratch/inside.sh" <<'INSIDE'
set -uo pipefail
t() { date +%s.%N; }
cd /root && tar -xf /bench/parlab.tar && cd /root/parlab
echo "clone: /root/parlab ($(stat -c %a /root)), $(nproc) CPUs visible, load $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(t); bash containers/install-deps.sh >/bench/deps.log 2>&1; rc=$?
t1=$(t); [ $rc = 0 ] && { cmake --preset default >/bench/configure.log 2>&1 && cmake --build build >/bench/build.log 2>&1; rc=$?; }
t2=$(t); [ $rc = 0 ] && { cmake --install build >/bench/install.log 2>&1 && grade lab01 >/bench/lab01.log 2>&1; rc=$?; }
t3=$(t)
echo "command 1 exit: $rc (1 expected: the skeleton fails its tests)"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {
  printf "install-deps.sh: %.0f s\nconfigure + build: %.0f s\ninstall + grade lab01: %.1f s\ncommand 1 total: %.0f s\n", b-a, c-b, d-c, d-a }'
grep -E "^(Sandbox|NOTE: sandbox)" /bench/lab01.log
echo "build targets: $(grep -c '^\[' /bench/build.log) steps"
t4=$(t); grade lab03 >/bench/lab03.log 2>&1; rc=$?; t5=$(t)
awk -v a="$t4" -v b="$t5" -v rc="$rc" 'BEGIN { printf "first grade lab03 (skeleton, sim): %.1f s, exit %d\n", b-a, rc }'
if [ "${WITH_TESTS:-0}" = 1 ]; then
  t6=$(t); cmake --build --preset tests >/bench/tests-build.log 2>&1 && ctest --preset default ${TESTS_REGEX:+-R "$TESTS_REGEX"} >/bench/ctest.log 2>&1; rc=$?; t7=$(t)
  awk -v a="$t6" -v b="$t7" -v rc="$rc" 'BEGIN { printf "command 2 (tests build + ctest): %.0f s, exit %d\n", b-a, rc }'
  tail -n 15 /bench/ctest.log
fi
INSIDE
echo "# parlab quick start: $(date -u +%Y-%m-%dT%H:%MZ), host $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), container --cpus $jobs, host load $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
podman run --rm --pull=never --network=host --cpus "$jobs" --privileged ${PARLAB_PODMAN_FLAGS:-} \
  -e WITH_TESTS="$with_tests" -e TESTS_REGEX="$tests_regex" -v "$scratch:/bench" docker.io/library/debian:12 bash /bench/inside.sh
mkdir -p /tmp/parlab-quickstart-logs && cp "$scratch"/*.log /tmp/parlab-quickstart-logs/ 2>/dev/null || true
echo "logs: /tmp/parlab-quickstart-logs"
