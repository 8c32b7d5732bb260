#!/usr/bin/env bash
# make_submission.sh LIE DIR: writes into DIR a correct, serial lab01 submission that
# tells LIE (clock_interposer | constructor_work | timings_writer) about its speed.
# Used by tests/e2e/forged_speed.sh and bench/forged_vs_honest.sh (README.md here).
set -euo pipefail
lie=$1
dir=$2
here=$(cd "$(dirname "$0")" && pwd)
ref="$here/../../../reference/lab01-multiprocessing"
mkdir -p "$dir"
cp "$ref/worker_processes.hpp" "$dir/"
sed 's/process_parallel(const std::vector/renamed_away_process_parallel(const std::vector/' \
  "$ref/file_stats.cpp" >"$dir/file_stats.cpp"
[ "$lie" = constructor_work ] || cat "$here/serial_process_parallel.cpp" >>"$dir/file_stats.cpp"
cat "$here/$lie.cpp" >>"$dir/file_stats.cpp"
