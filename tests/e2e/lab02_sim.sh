#!/usr/bin/env bash
# lab02 without a GPU: the reference passes every correctness test (CPU tests natively,
# GPU tests in the simulator, the memory wall on its [sim] stand-in), its CPU performance
# tests are measured while the GPU ones are skipped with the reason; the skeleton
# compiles, runs, scores 0 and exits 1; a submission that stores the whole m x n matrix
# fails exactly the two memory-wall tests, with "out of memory: process in chunks".
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
export PARLAB_SIM_ALLOW_EXITED_AT_BARRIER=1

WALL_CPU="memory wall (CPU): 10000 queries x 30000 points in 256 MB"
WALL_GPU="memory wall (GPU): 16 MB device budget"
TINY="predict_parallel: tiny bandwidth (log-sum-exp)"

run_grade ref lab02 --reference --device sim --work-dir "$W/work" --json "$W/ref.json"
expect_rc_or_busy ref 0
expect_no_test "$W/ref.json" failed "no reference test fails"
expect_test "$W/ref.json" "$WALL_CPU" status passed "streaming CPU reference passes the CPU memory wall"
expect_test "$W/ref.json" "$WALL_GPU" status passed "fused GPU reference passes the device budget (sim)"
expect_test "$W/ref.json" "$WALL_GPU" dataset "wall_gpu_sim \(seed [0-9]+\)" "the simulator reads the wall's stand-in ([sim] datasets)"
expect_test "$W/ref.json" "$WALL_CPU" dataset "wall_cpu \(seed [0-9]+\)" "... and a CPU test its own dataset"
expect_test "$W/ref.json" "$TINY" status passed "log-sum-exp case passes"
expect_test "$W/ref.json" "parallel speedup" status "passed|partial|inconclusive" "CPU performance measured in sim mode"
expect_test_says "$W/ref.json" "parallel speedup" "the speed of reference:predict_parallel" "speedup reported against the parallel reference, same workers"
expect_test "$W/ref.json" "GPU vs the GPU reference" status not_graded "GPU performance not graded in sim"
expect_test_says "$W/ref.json" "GPU vs the GPU reference" "the simulation backend" "with the reason"

run_grade skel lab02 --device sim --no-perf --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" score 0 "the skeleton scores 0"
expect_message "$W/skel.json" "were never written \\(outputs are poisoned with NaN" "unwritten predictions explained"
expect_no_test "$W/skel.json" passed "no skeleton test passes"

fake_result wall lab02 lab02/materialize --no-perf  # the fake table's grading
expect_rc wall 1
expect_test "$W/wall.json" "$WALL_CPU" status failed "materializing m x n fails the CPU wall"
expect_test "$W/wall.json" "$WALL_GPU" status failed "... and the GPU budget"
expect_test_says "$W/wall.json" "$WALL_GPU" "500 queries and 20000 training points would take 38 MB" "... on the stand-in too, whose whole matrix is over the budget"
expect_message "$W/wall.json" "out of memory: process in chunks" "with the teaching message"
expect_test "$W/wall.json" "predict_parallel: 2000 x 500, all cores" status passed "its other tests pass"
expect_test "$W/wall.json" "predict_gpu: 2000 x 500" status passed "its GPU tests pass in sim"

# Two ways to leave NaN, two hints: never written (still the poison: the split drops
# the remainder) and computed 0/0 (no log-sum-exp).
fake_result chunks lab02 lab02/chunk_remainder --no-perf  # the fake table's grading
expect_rc chunks 1
expect_test "$W/chunks.json" "predict_parallel: more workers than queries" status failed "more workers than queries fails"
expect_test_says "$W/chunks.json" "predict_parallel: more workers than queries" "never written \\(outputs are poisoned.*Hint: split the m queries" "with the unwritten hint"
expect_test "$W/chunks.json" "predict_parallel: 2000 x 500, all cores" status passed "an even split passes"
fake_result nolse lab02 lab02/no_log_sum_exp --no-perf  # the fake table's grading
expect_rc nolse 1
expect_test "$W/nolse.json" "$TINY" status failed "tiny bandwidth fails without log-sum-exp"
expect_test_says "$W/nolse.json" "$TINY" "Hint: NaN computed as 0/0" "with the log-sum-exp hint"
expect_no_message "$W/nolse.json" "Hint: split the m queries" "and not the unwritten-block one"
finish
