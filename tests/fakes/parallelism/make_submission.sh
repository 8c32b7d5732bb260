#!/usr/bin/env bash
# make_submission.sh KIND DIR: a correct submission without the parallelism its tests
# ask for (README.md here), made from the reference so it stays correct as the lab moves.
set -euo pipefail
kind=$1
dir=$2
here=$(cd "$(dirname "$0")" && pwd)
refs="$here/../../../reference"
mkdir -p "$dir"
case "$kind" in
  lab01_serial | lab01_threads | lab01_burner)
    cp "$refs/lab01-multiprocessing/worker_processes.hpp" "$dir/"
    sed 's/process_parallel(const std::vector/renamed_away_process_parallel(const std::vector/' \
      "$refs/lab01-multiprocessing/file_stats.cpp" >"$dir/file_stats.cpp"
    cat "$here/$kind.cpp" >>"$dir/file_stats.cpp"
    ;;
  lab01_sandbag)
    cp "$refs/lab01-multiprocessing/worker_processes.hpp" "$dir/"
    sed 's/process_parallel(const std::vector/renamed_away_process_parallel(const std::vector/' \
      "$refs/lab01-multiprocessing/file_stats.cpp" >"$dir/file_stats.cpp"
    sed 's/process_parallel(const std::vector/serial_with_burner(const std::vector/' \
      "$here/lab01_burner.cpp" >>"$dir/file_stats.cpp"
    cat "$here/lab01_sandbag.cpp" >>"$dir/file_stats.cpp"
    [ "$(grep -c 'serial_with_burner(' "$dir/file_stats.cpp")" = 2 ]
    ;;
  lab01_half_speed | lab01_third_speed)
    cp "$refs/lab01-multiprocessing/worker_processes.hpp" "$dir/"
    # Every file is read twice (three times); the last reading's result is the one kept.
    extra='  { volatile auto first = compute_file_stats_once(path).rows; (void)first; }\n'
    [ "$kind" = lab01_third_speed ] && extra="$extra$extra"
    sed "s/^FileStats compute_file_stats(const std::string& path) {\$/FileStats compute_file_stats_once(const std::string\\& path);\nFileStats compute_file_stats(const std::string\\& path) {\n$extra  return compute_file_stats_once(path);\n}\nFileStats compute_file_stats_once(const std::string\\& path) {/" \
      "$refs/lab01-multiprocessing/file_stats.cpp" >"$dir/file_stats.cpp"
    grep -q compute_file_stats_once "$dir/file_stats.cpp"
    ;;
  lab02_single_thread)
    cp "$refs/lab02-kernel-regression/regression_gpu.cu" "$dir/"
    sed 's/run_workers(workers,/run_workers(1,/' \
      "$refs/lab02-kernel-regression/regression_cpu.cpp" >"$dir/regression_cpu.cpp"
    [ "$(grep -c 'run_workers(1,' "$dir/regression_cpu.cpp")" = 2 ]
    ;;
  lab02_half_speed)
    cp "$refs/lab02-kernel-regression/regression_gpu.cu" "$dir/"
    # Every prediction block is computed twice; the second result is the one kept (the
    # empty asm marks the first as used, so the compiler cannot drop it as dead).
    perl -pe '
      s/\{ predict_into\(p, inv_2h2, b, block, out\); \}/{ predict_into(p, inv_2h2, b, block, out); predict_into(p, inv_2h2, b, block, out); }/;
      s/^(\s+)(predict_block\(p, inverse_two_h2\(bandwidths\[item \/ blocks\]\), q0, count, pred\);)$/$1$2\n$1asm volatile("" : : "r"(pred) : "memory");\n$1$2/;
    ' "$refs/lab02-kernel-regression/regression_cpu.cpp" >"$dir/regression_cpu.cpp"
    [ "$(grep -c 'predict_into(p, inv_2h2, b, block, out); predict_into' "$dir/regression_cpu.cpp")" = 1 ]
    [ "$(grep -c 'predict_block(p, inverse_two_h2(bandwidths' "$dir/regression_cpu.cpp")" = 2 ]
    ;;
  *)
    echo "make_submission.sh: unknown kind '$kind'" >&2
    exit 2
    ;;
esac
