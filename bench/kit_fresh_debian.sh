#!/usr/bin/env bash
# Benchmark (not a test): a student kit on a fresh, minimal Debian 12, with the commands
# of the kit's own README ("unpacked in an empty folder on a fresh Debian 12,
# builds and grades"). As root, with Debian's archive reachable:
#   bash bench/kit_fresh_debian.sh [BUILD_DIR] [LAB...]     (default: every lab)
# 1. debootstrap --variant=minbase bookworm into a scratch folder (nothing of this
#    machine's packages: no compiler, no CUDA);
# 2. `grade export student` from BUILD_DIR, the archive copied into the new root's /root;
# 3. in a chroot: a student account unpacks the kit in its home; root runs the kit's
#    install-deps.sh (what `sudo` does on a laptop; minbase has no sudo); the student runs
#    the README's `cmake --preset default && cmake --build build` and a first grading of
#    the first lab's skeleton (--no-perf; exit 1 expected: it fails its tests). Each
#    step is timed.
# Then root grades the same skeleton in the student's folder, as an instructor's
# `grade` would (exit 1, or 3 with the reason where the chroot refuses the sandbox).
# Prints one line per step (seconds) and the gradings' totals. Not a sandbox test: the
# chroot shares this machine's kernel (bubblewrap inside it may be refused; the grading
# then falls back and says so).
set -euo pipefail
build=${1:-build}
shift || true
labs=("$@")
[ ${#labs[@]} -gt 0 ] || labs=(lab01 lab02 lab03 lab04 lab05 lab06)
[ "$(id -u)" -eq 0 ] || { echo "kit_fresh_debian: run as root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "kit_fresh_debian: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
grade="$(cd "$build" && pwd)/grade"
root=$(mktemp -d /var/tmp/parlab-kit-debian.XXXXXX)
chmod 755 "$root"  # mktemp gives 0700: the student account must pass the new root
logs=$(mktemp -d /tmp/parlab-kit-debian-logs.XXXXXX)
cleanup() {
  for m in dev/pts dev proc; do umount "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
step() {  # NAME COMMAND...: runs it, prints its seconds; a failure stops with its log
  local name=$1; shift
  local t0; t0=$(date +%s.%N)
  if ! "$@" >"$logs/$name.log" 2>&1; then
    echo "kit_fresh_debian: $name failed (log: $logs/$name.log)" >&2; tail -20 "$logs/$name.log" >&2; exit 1
  fi
  printf '%-13s %7.1f s\n' "$name" "$(echo "$(date +%s.%N) - $t0" | bc)"
}
inside() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb /bin/bash -c "$1"; }
echo "kit of ${labs[*]}: fresh Debian 12 (minbase), host $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%H:%MZ)"
step debootstrap debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
step export "$grade" export student "${labs[@]}" --out "$root/parlab-kit.tar.gz"
step account inside 'useradd --create-home --shell /bin/bash student'
as_student() { inside "runuser -u student -- bash -c 'cd ~ && $1'"; }
step unpack as_student 'tar -xzf /parlab-kit.tar.gz'
step install-deps inside 'cd /home/student/parlab-kit && bash containers/install-deps.sh'
step configure as_student 'cd parlab-kit && cmake --preset default'
step build as_student 'cd parlab-kit && cmake --build build'
first=${labs[0]}
student_grading() {
  as_student "cd parlab-kit && cp -r labs/$first-*/skeleton my-$first && ./build/grade $first my-$first --no-perf"
  [ $? -le 1 ]
}
step grade student_grading
echo "grade (student): $(grep -E '^Total' "$logs/grade.log" | tail -1)"
root_grading() {
  # A uid range of its own: the chroot has its own /run, so a grader outside it on this
  # machine leases from the same default range (docs/sandbox.md, "A uid per grading").
  inside "cd /home/student/parlab-kit && PARLAB_UID_POOL=62000-62127 ./build/grade $first my-$first --no-perf"
  local rc=$?
  echo "exit $rc"
  [ $rc -le 1 ] || [ $rc -eq 3 ]
}
step grade-root root_grading
echo "grade (root): $(grep -E '^Total|^grade: error|^exit' "$logs/grade-root.log" | tail -2 | tr '\n' ' ')"
echo "packages installed by install-deps.sh: $(grep -cE '^Setting up ' "$logs/install-deps.log" || true)"
echo "logs: $logs"
