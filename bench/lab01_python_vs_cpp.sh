#!/usr/bin/env bash
# Benchmark (not a test): lab01's Python reference against its C++ reference, side by
# side (C++ then Python, RUNS times, alternating), on lab01's performance datasets, each
# time read from the programs' own timings.json (the call of the student's function,
# as the grader times it). Prints the median of each program per task and their ratio.
#   bash bench/lab01_python_vs_cpp.sh BUILD_DIR UNIFORM_DIR SKEWED_DIR [RUNS]
# UNIFORM_DIR and SKEWED_DIR: the uniform_large and skewed_large datasets, e.g. from a
# grading's dataset cache (BUILD_DIR/grade-work/dataset-cache/sensor_logs-*: the one
# with 32 equal files, and the one with 32 files of which log_000.csv holds half the rows).
set -euo pipefail
build=$1 uniform=$2 skewed=$3 runs=${4:-9}
cpp="$build/labs/lab01_reference"
python="$build/labs/lab01_python_reference/lab01_python_reference"
out=$(mktemp -d /tmp/parlab-pyvscpp.XXXXXX)
trap 'rm -rf "$out"' EXIT

sample() {  # PROGRAM TASK DATASET WORKERS: the run's one measured time, in seconds
  rm -rf "$out/run"
  "$1" --task "$2" --dataset "$3" --out "$out/run" --param "workers=$4" >/dev/null
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["samples_s"][0])' "$out/run/timings.json"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-34s %10s %10s %8s\n' "task (dataset, workers)" "C++ s" "Python s" "ratio"
for row in "parallel_dynamic $uniform 2 uniform_large" "parallel_static $skewed 2 skewed_large" \
           "parallel_dynamic $skewed 2 skewed_large" "serial $uniform 1 uniform_large"; do
  read -r task data workers name <<<"$row"
  : >"$out/cpp" && : >"$out/py"
  for _ in $(seq "$runs"); do
    sample "$cpp" "$task" "$data" "$workers" >>"$out/cpp"
    sample "$python" "$task" "$data" "$workers" >>"$out/py"
  done
  c=$(median <"$out/cpp") p=$(median <"$out/py")
  printf '%-34s %10.4f %10.4f %7.1fx\n' "$task ($name, $workers)" "$c" "$p" "$(awk -v a="$p" -v b="$c" 'BEGIN { print a / b }')"
done
