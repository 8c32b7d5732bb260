#!/usr/bin/env bash
# Scaling of lab02's CPU references on this machine (not a test): the model solution
# (reference/lab02-kernel-regression/regression_cpu.cpp, through the lab's driver) and
# the ground-truth library nw_cpu (through lab02_cpu_reference), on the "parallel
# speedup" test's data (n = 20000, m = 4000, d = 3) and the grid search's (8000 x 2000,
# 9 bandwidths), with 1 .. all cores. Median of RUNS timed calls each.
#   bash bench/lab02_cpu_scaling.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-5}
work=$(mktemp -d /tmp/parlab-lab02-bench.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
# One grading fills the dataset cache with lab.toml's datasets.
"$build/grade" lab02 --reference --device sim --work-dir "$work/grade" >/dev/null 2>&1 || true
dataset_with_shape() {  # N M D -> the cached dataset folder of that shape
  for dir in "$work"/grade/dataset-cache/regression_data-*; do
    if [ "$(od -An -t d8 "$dir/shape.bin" | xargs)" = "$1 $2 $3" ]; then echo "$dir"; return; fi
  done
  echo "no cached dataset of shape $1 $2 $3" >&2; exit 1
}
median_of() {  # PROGRAM TASK DATASET PARAMS... -> median seconds of the timed calls
  local out="$work/out-$RANDOM"
  mkdir -p "$out"
  "$1" --task "$2" --dataset "$3" --out "$out" --warmup 1 --repeat "$runs" "${@:4}" >/dev/null
  python3 -c "import json,statistics,sys; print('%.3f' % statistics.median(json.load(open(sys.argv[1]))['samples_s']))" "$out/timings.json"
}
large=$(dataset_with_shape 20000 4000 3)
grid=$(dataset_with_shape 8000 2000 3)
cores=$(nproc)
echo "# lab02 CPU scaling: $(date -u +%Y-%m-%d), $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), median of $runs"
echo "| program | task | data | workers | median (s) | speedup over 1 |"
echo "|---|---|---|---|---|---|"
row() {  # LABEL PROGRAM TASK DATA_LABEL DATASET KEY PARAMS...
  local base=""
  for w in $(seq 1 "$cores"); do
    t=$(median_of "$2" "$3" "$5" --param "$6=$w" "${@:7}")
    [ -z "$base" ] && base=$t
    echo "| $1 | $3 | $4 | $w | $t | $(python3 -c "print('%.2fx' % ($base / $t))") |"
  done
}
echo "| model solution | predict_serial | 20000 x 4000 | 1 | $(median_of "$build/labs/lab02_reference_sim" predict_serial "$large" --param h=0.2) | |"
row "model solution" "$build/labs/lab02_reference_sim" predict_parallel "20000 x 4000" "$large" workers --param h=0.2
row "model solution" "$build/labs/lab02_reference_sim" grid_search "8000 x 2000, k = 9" "$grid" workers --param h_min=0.01 --param h_max=10 --param k=9
row "nw_cpu (expected outputs)" "$build/labs/lab02_cpu_reference" predict_parallel "20000 x 4000" "$large" threads --param h=0.2
row "nw_cpu (expected outputs)" "$build/labs/lab02_cpu_reference" grid_search "8000 x 2000, k = 9" "$grid" threads --param h_min=0.01 --param h_max=10 --param k=9
