#!/usr/bin/env bash
# Benchmark (not a test): a student kit's first build, with the commands of its own
# README, from an empty folder, without a compiler cache (docs/release.md).
#   bash bench/kit_first_build.sh [BUILD_DIR] [LAB...]     (default: every lab)
# Prints the seconds of each step: export, unpack, configure, build, a first grading of
# the first lab's skeleton (--no-perf: it builds the datasets and the submission).
# install-deps.sh is not run (it needs the network on a fresh machine; here the packages
# are present): on a fresh Debian 12 add its download and install time.
set -euo pipefail
build=${1:-build}
shift || true
labs=("$@")
[ ${#labs[@]} -gt 0 ] || labs=(lab01 lab02 lab03 lab04 lab05 lab06)
grade="$(cd "$build" && pwd)/grade"
scratch=$(mktemp -d /tmp/parlab-kit-build.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
unset CMAKE_CXX_COMPILER_LAUNCHER CMAKE_CUDA_COMPILER_LAUNCHER
export CCACHE_DISABLE=1
step() {  # NAME COMMAND...
  local name=$1; shift
  local t0; t0=$(date +%s.%N)
  "$@" >"$scratch/$name.log" 2>&1 || { echo "kit_first_build: $name failed (log: $scratch/$name.log)" >&2; tail -20 "$scratch/$name.log" >&2; trap - EXIT; exit 1; }
  printf '%-10s %7.1f s\n' "$name" "$(echo "$(date +%s.%N) - $t0" | bc)"
}
echo "kit of ${labs[*]}, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%F)"
step export "$grade" export student "${labs[@]}" --out "$scratch/kit.tar.gz"
step unpack tar -xzf "$scratch/kit.tar.gz" -C "$scratch"
cd "$scratch/kit"
step configure cmake --preset default
step build cmake --build build
first=${labs[0]}
dir=$(ls -d labs/"$first"-*)
cp -r "$dir/skeleton" "my-$first"
grading() { ./build/grade "$first" "my-$first" --no-perf --work-dir "$scratch/work"; [ $? -le 1 ]; }
step grade grading
echo "grade: $(grep -E '^Total:' "$scratch/grade.log" | tail -1)"
