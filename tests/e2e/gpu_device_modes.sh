#!/usr/bin/env bash
# GPU labs without a GPU (lab05 as the example): --device none skips every test with
# exit 3; --device gpu is an environment error naming the reason; in sim mode a
# kernel without a bounds check is stopped with an out-of-bounds report naming its line, threads of a
# block waiting at different barriers are a deadlock, edge threads that skip the tile
# loads give wrong results on edge tiles only, and a compile error points at the
# student's .cu line. On a GPU machine the no-GPU checks are skipped (said so).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

run_grade none lab05 --device none --work-dir "$W/work" --json "$W/none.json"
expect_rc none 3
all_tests=$(tests_where "$W/none.json" status '.*')
[ -n "$all_tests" ] && [ "$(tests_where "$W/none.json" status not_graded)" = "$all_tests" ] &&
  pass "--device none: tests reported as not graded here" ||
  fail "--device none: not every test is not_graded: $(tests_where "$W/none.json" status '.*')"
expect_field "$W/none.json" device.mode none "--device none: the JSON result records the mode"

if nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: --device gpu without a GPU (this machine has one)"
else
  run_grade gpu lab05 --device gpu --work-dir "$W/work"
  expect_rc gpu 3
  # text: an environment error, printed before any report exists
  expect_in "$W/gpu.err" "grade: error: --device gpu: no usable CUDA device" "--device gpu says why"
fi

fake_result oob lab05 lab05/no_bounds_check --no-perf  # the fake table's grading
expect_rc oob 1
expect_message "$W/oob.json" "invalid device memory access" "missing bounds check: named as such"
# The first access past the end is a read of A or B in the loop: the message names its line
# (the report's code offset, resolved by the grader with addr2line).
LINE=$(line_of "$FAKE_DIR/matmul.cu" 'acc \+= A\[row')
expect_message "$W/oob.json" "invalid device memory access in a kernel at matmul\.cu:$LINE:" \
  "the fault's message names the line of the bad access"
expect_output "$W/oob.json" "naive_no_bounds" "the report names the student's kernel (the simulator's stderr)"
expect_field "$W/oob.json" device.mode sim "the result's device is the simulator"

fake_submission lab05 lab05/divergent_barrier
run_grade deadlock lab05 "$FAKE_DIR" --device sim --no-perf --work-dir "$W/work" --wall-limit 60 \
  --json "$W/deadlock.json"
expect_rc deadlock 1
expect_message "$W/deadlock.json" "undefined behaviour in a kernel: threads of one block wait at different __syncthreads\\(\\)" \
  "two different barriers: reported as undefined behaviour (a GPU may hang, or not)"
expect_output "$W/deadlock.json" "tiled_divergent_barrier" "the report names the kernel (the simulator's stderr)"

fake_submission lab05 lab05/barrier_in_branch
run_grade branch lab05 "$FAKE_DIR" --device sim --no-perf --work-dir "$W/work" --wall-limit 60 \
  --json "$W/branch.json"
expect_rc branch 1
expect_test "$W/branch.json" "tiled: 17 x 17 x 17 (tile + 1)" status failed \
  "edge threads that skip the tile loads: wrong on edge tiles"
expect_test "$W/branch.json" "tiled: large square, whole tiles" status passed "... and right on full tiles"
expect_message "$W/branch.json" "simulator: early exit before the __syncthreads\(" \
  "the barrier inside the branch is reported"

fake_result cerr lab05 lab05/compile_error --no-perf  # the fake table's grading
expect_rc cerr 1
expect_field "$W/cerr.json" build.ok false "the compile error fails the build"
# With nvcc installed, its compile check reports first (docs/simulation.md); without, g++.
expect_field "$W/cerr.json" build.diagnostics.0.file 'matmul\.cu' "sim build errors point at the student's .cu file, as submitted"
expect_field "$W/cerr.json" build.diagnostics.0.line 8 "... at its line"
expect_field "$W/cerr.json" build.diagnostics.0.message '.{1,3}idx.{1,3} was not declared.*|identifier .idx. is undefined' "... with the error"
finish
