#!/usr/bin/env bash
# What the memo of compiled views saves (compile/compiled_views_memo): a copy of lab04's
# reference with one .cu changed (a new comment at every grading, so no build is reused
# whole) graded in sim, --no-perf, in one work folder, with the memo (B: the two
# unchanged files' views were kept by the warm-up) and without it (A: the kept
# agreements removed before the grading, as a grader without the memo). Taken in turn,
# A B A B, RUNS pairs; prints the medians of the build's seconds (result.json
# build.seconds) and of the grading's wall seconds, and the median of the pairs' ratios.
#   bash bench/views_memo.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-7}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/parlab-views-memo.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/copy"
cp "$root/reference/lab04-atomics-reductions/"*.cu "$root/reference/lab04-atomics-reductions/"*.cuh "$work/copy/"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# grade MODE: one grading of a new version of the copy; prints "build_seconds wall_seconds".
grade() {
  echo "// version $(date +%s%N)" >>"$work/copy/max_reduce.cu"
  [ "$1" = A ] && rm -rf "$work/work/compile-checks/views"
  local start end
  start=$(date +%s.%N)
  "$build/grade" lab04 "$work/copy" --device sim --no-perf --work-dir "$work/work" \
    --json "$work/result.json" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["build"]["seconds"], sys.argv[2])' \
    "$work/result.json" "$(echo "$end - $start" | bc)"
}
grade B >/dev/null  # warm-up: datasets, nvcc's checks and the views of the unchanged files kept
: >"$work/pairs"
for _ in $(seq "$runs"); do
  read -r a_build a_wall < <(grade A)
  read -r b_build b_wall < <(grade B)
  echo "$a_build $a_wall $b_build $b_wall" >>"$work/pairs"
done
col() { awk -v c="$1" '{print $c}' "$work/pairs" | median; }
printf 'A (no memo): build %.2f s, grading %.2f s (medians of %d)\n' "$(col 1)" "$(col 2)" "$runs"
printf 'B (memo):    build %.2f s, grading %.2f s\n' "$(col 3)" "$(col 4)"
printf 'A/B build:   %.2f (median of the pairs)\n' "$(awk '{print $1 / $3}' "$work/pairs" | median)"
