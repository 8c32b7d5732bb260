#!/usr/bin/env bash
# Benchmark (not a test) of sim mode's seeded thread orders (docs/simulation.md, "Thread
# order"): how often is each order-dependent or racy fake caught, and what do the re-runs
# cost? Each fake is graded RUNS times (`grade lab04 SUB --device sim --no-perf`) with
# PARLAB_SIM_ORDER_RERUNS = each of RERUNS; a grading catches the fake when its targeted
# test fails. Then the lab04 reference's grading wall time (median of RUNS) with no
# re-run and with each of RERUNS.
#   bash bench/sim_order_catch.sh [BUILD_DIR] [RUNS] [RERUNS...]
set -euo pipefail
build=${1:-build}
runs=${2:-5}
shift 2 || true
reruns=("$@")
[ ${#reruns[@]} -gt 0 ] || reruns=(2)
grade="$build/grade"
work=$(mktemp -d /tmp/parlab-order-catch.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
bash tests/fakes/make_fake.sh lab04 lab04/histogram_race "$work/histogram_race"
bash tests/fakes/make_fake.sh lab04 lab04/zeroed_in_kernel "$work/zeroed_in_kernel"
bash tests/fakes/sim_trust/make_submission.sh order_probe "$work/order_probe"
bash tests/fakes/sim_trust/make_submission.sh unset_checks "$work/unset_checks"
declare -A target=([histogram_race]="histogram: prime size, 256 bins"
                   [zeroed_in_kernel]="sum: prime size, mixed signs"
                   [order_probe]="sum: prime size, mixed signs"
                   [unset_checks]="histogram: prime size, 256 bins")

status_of() {  # JSON TEST
  python3 -c 'import json,sys
print(next((t["status"] for t in json.load(open(sys.argv[1]))["tests"] if t["name"] == sys.argv[2]), "missing"))' "$1" "$2"
}

echo "| fake | re-runs | caught | gradings |"
echo "|---|---|---|---|"
for fake in histogram_race zeroed_in_kernel order_probe unset_checks; do
  for n in "${reruns[@]}"; do
    caught=0
    for i in $(seq "$runs"); do
      PARLAB_SIM_ORDER_RERUNS=$n "$grade" lab04 "$work/$fake" --device sim --no-perf \
        --work-dir "$work/w" --json "$work/$fake.$n.$i.json" >/dev/null 2>&1 || true
      [ "$(status_of "$work/$fake.$n.$i.json" "${target[$fake]}")" = failed ] && caught=$((caught + 1))
    done
    echo "| $fake | $n | $caught | $runs |"
  done
done

echo
echo "| lab04 reference, re-runs | median wall (s) | runs (s) | time in lab executables (s) |"
echo "|---|---|---|---|"
for n in $(printf '%s\n' 0 "${reruns[@]}" | sort -un); do
  PARLAB_SIM_ORDER_RERUNS=$n "$grade" lab04 --reference --device sim --no-perf --work-dir "$work/w" >/dev/null 2>&1 || true
  times=()
  for i in $(seq "$runs"); do
    start=$(date +%s.%N)
    PARLAB_SIM_ORDER_RERUNS=$n "$grade" lab04 --reference --device sim --no-perf \
      --work-dir "$work/w" --json "$work/ref.$n.json" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  child=$(grep -Eo '"child_seconds": [0-9.e+-]+' "$work/ref.$n.json" | awk '{print $2}')
  printf '| %s | %.2f | %s | %s |\n' "$n" "$median" "$(printf '%.2f ' "${times[@]}")" "$child"
done
