#!/usr/bin/env bash
# GPU labs without a GPU (lab05 as the example): --device none skips every test with
# exit 3; --device gpu is an environment error naming the reason; in sim mode a
# kernel without a bounds check is stopped with an out-of-bounds report, threads of a
# block waiting at different barriers are a deadlock, edge threads that skip the tile
# loads give wrong results on edge tiles only, and a compile error points at the
# student's .cu line. On a GPU machine the no-GPU checks are skipped (said so).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
GPU_FAKES="$PARLAB_SOURCE_DIR/tests/fakes/lab05"

run_grade none lab05 --device none --work-dir "$W/work" --json "$W/none.json"
expect_rc none 3
expect_in "$W/none.out" "not graded here: no GPU tests run" "--device none: tests reported as not graded here"
expect_in "$W/none.json" '"mode": "none"' "--device none: the JSON result records the mode"

if nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: --device gpu without a GPU (this machine has one)"
else
  run_grade gpu lab05 --device gpu --work-dir "$W/work"
  expect_rc gpu 3
  expect_in "$W/gpu.err" "grade: error: --device gpu: no usable CUDA device" "--device gpu says why"
fi

run_grade oob lab05 "$GPU_FAKES/no_bounds_check" --device sim --no-perf --work-dir "$W/work" \
  --json "$W/oob.json"
expect_rc oob 1
expect_in "$W/oob.out" "invalid device memory access" "missing bounds check: named as such"
expect_in "$W/oob.json" "naive_no_bounds" "the report names the student's kernel"
expect_in "$W/oob.out" "Device: +simulator" "the device line says simulator"

run_grade deadlock lab05 "$GPU_FAKES/divergent_barrier" --device sim --no-perf \
  --work-dir "$W/work" --wall-limit 60
expect_rc deadlock 1
expect_in "$W/deadlock.out" "deadlock in a kernel" "two different barriers: reported as a deadlock"
expect_in "$W/deadlock.out" "tiled_divergent_barrier" "the deadlock report names the kernel"

run_grade branch lab05 "$GPU_FAKES/barrier_in_branch" --device sim --no-perf \
  --work-dir "$W/work" --wall-limit 60
expect_rc branch 1
expect_in "$W/branch.out" "tiled: 17 x 17 x 17 \(tile \+ 1\) +failed" \
  "edge threads that skip the tile loads: wrong on edge tiles"
expect_in "$W/branch.out" "tiled: 256 x 256 x 256 +passed" "... and right on full tiles"
expect_in "$W/branch.out" "simulator: early exit before the __syncthreads\(" \
  "the barrier inside the branch is reported (issue 15)"

run_grade cerr lab05 "$GPU_FAKES/compile_error" --device sim --no-perf --work-dir "$W/work"
expect_rc cerr 1
# With nvcc installed, its compile check reports first (docs/simulation.md); without, g++.
expect_in "$W/cerr.out" "compile_error/matmul.cu:8(:[0-9]+: error: .idx. was not declared|: error: identifier .idx. is undefined)" \
  "sim build errors point at the student's .cu line"
finish
