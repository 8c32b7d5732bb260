#!/usr/bin/env bash
# Cost of the sim check build (race check instrumentation + PARLAB_SIM_RACE_CHECK=1,
# the memory-access counters and the branch-divergence counter) on each CUDA lab's
# correctness suite, next to the plain sim build (PARLAB_SIM_CHECK=0) and to the check
# build without the divergence counter's coverage hook (PARLAB_SIM_DIVERGENCE=0):
# `grade LAB --reference --device sim --no-perf`, RUNS times each after a warm-up
# grading (datasets and builds cached). Reports the medians of the time spent inside
# the lab executables (child_seconds: what the check changes) and of the wall time,
# and the ratios of the child-time medians (check / plain, check / check without divergence).
#   bash bench/sim_check_cost.sh [BUILD_DIR] [RUNS] [LABS]   (LABS: "lab03 lab04 lab05")
set -euo pipefail
build=${1:-build}
runs=${2:-5}
labs=${3:-lab03 lab04 lab05}
work=$(mktemp -d /tmp/parlab-sim-check.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# measure LAB MODE: prints "median_child median_wall"; MODE 0 plain, 1 check build,
# nodiv the check build without the divergence counter.
measure() {
  local lab=$1 mode=$2 children=() walls=() check=1 divergence=1
  [ "$mode" = 0 ] && check=0
  [ "$mode" = nodiv ] && divergence=0
  PARLAB_SIM_CHECK=$check PARLAB_SIM_DIVERGENCE=$divergence "$build/grade" "$lab" --reference \
    --device sim --no-perf --work-dir "$work/$mode" >/dev/null 2>&1 || { echo "fail fail"; return; }
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    PARLAB_SIM_CHECK=$check PARLAB_SIM_DIVERGENCE=$divergence "$build/grade" "$lab" --reference \
      --device sim --no-perf --work-dir "$work/$mode" --json "$work/$lab-$mode.json" >/dev/null 2>&1
    end=$(date +%s.%N)
    walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')")
    children+=("$(grep -Eo '"child_seconds": [0-9.e+-]+' "$work/$lab-$mode.json" | awk '{print $2}')")
  done
  echo "$(printf '%s\n' "${children[@]}" | median) $(printf '%s\n' "${walls[@]}" | median)"
}
echo "| lab | plain sim: child s (wall s) | check, no divergence: child s (wall s) | check build: child s (wall s) | check / plain | divergence's share |"
echo "|---|---|---|---|---|---|"
for lab in $labs; do
  read -r plain_child plain_wall < <(measure "$lab" 0)
  read -r nodiv_child nodiv_wall < <(measure "$lab" nodiv)
  read -r check_child check_wall < <(measure "$lab" 1)
  ratio=$(awk -v a="$plain_child" -v b="$check_child" 'BEGIN {printf "%.2f", b / a}')
  divergence=$(awk -v a="$nodiv_child" -v b="$check_child" 'BEGIN {printf "%.2f", b / a}')
  printf '| %s | %.2f (%.2f) | %.2f (%.2f) | %.2f (%.2f) | %sx | %sx |\n' "$lab" "$plain_child" \
    "$plain_wall" "$nodiv_child" "$nodiv_wall" "$check_child" "$check_wall" "$ratio" "$divergence"
done
