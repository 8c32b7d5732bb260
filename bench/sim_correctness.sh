#!/usr/bin/env bash
# Sim-mode cost of each CUDA lab's correctness suite: `grade LAB --reference
# --device sim --no-perf`, RUNS times per lab after one warm-up grading (datasets
# cached, build cached), the median wall time, and the time inside lab executables.
#   bash bench/sim_correctness.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-3}
work=$(mktemp -d /tmp/parlab-sim-bench.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
echo "| lab | tests | median wall (s) | runs | time in lab executables (s) |"
echo "|---|---|---|---|---|"
for lab in lab03 lab04 lab05; do
  "$build/grade" "$lab" --reference --device sim --no-perf --work-dir "$work" >/dev/null 2>&1 || {
    echo "| $lab | reference did not pass in sim | | | |"; continue; }
  times=()
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    "$build/grade" "$lab" --reference --device sim --no-perf --work-dir "$work" \
      --json "$work/$lab.json" >/dev/null 2>&1
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  tests=$(grep -c '"kind": "correctness"' "$work/$lab.json")
  child=$(grep -Eo '"child_seconds": [0-9.e+-]+' "$work/$lab.json" | awk '{print $2}')
  printf '| %s | %s | %.2f | %s | %.2f |\n' "$lab" "$tests" "$median" "$(printf '%.2f ' "${times[@]}")" "$child"
done
