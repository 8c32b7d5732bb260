#!/usr/bin/env bash
# lab02's Python track, CPU part (--device none: the Numba kernels' simulator runs are
# too slow for this lab's GPU datasets; see docs/performance.md). The reference gets full
# marks on every CPU correctness test and passes its CPU speed tests (or inconclusive);
# the skeleton 0 with the first wrong prediction named; a lambda sent to a pool fails
# naming pickling; a serial predict_parallel stays correct but earns no parallel points.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
REF="$PARLAB_SOURCE_DIR/reference/lab02-kernel-regression/python"
SKEL="$PARLAB_SOURCE_DIR/labs/lab02-kernel-regression/skeleton/python"
CPU_TESTS=("predict_serial: 1 training point, 1 query" "predict_serial: primes 37 x 13, d = 2"
           "predict_serial: d = 17" "predict_parallel: 2000 x 500, all cores"
           "predict_parallel: more workers than queries" "predict_parallel: tiny bandwidth (log-sum-exp)"
           "grid_search: 9 bandwidths" "memory wall (CPU): 10000 queries x 30000 points in 256 MB"
           "hidden fresh data: predict_parallel")

# 1. The Python reference, CPU part, its speed tests included: timed against the Python
# reference, never the C++ one (against C++ it got 0.32x of itself, 0 points).
run_grade ref lab02 --reference --language python --device none --work-dir "$W/work" --json "$W/ref.json"
expect_rc_or_busy ref 3   # tests not graded here (the GPU's) in reference mode: as cpu_tests_in_gpu_lab.sh
expect_test "$W/ref.json" "parallel speedup" status "passed|inconclusive" "the reference's speed against itself: passed, or inconclusive when busy"
expect_test "$W/ref.json" "grid search speedup" status "passed|inconclusive" "... and its grid search's"
expect_field "$W/ref.json" track python "the result names the Python track"
for t in "${CPU_TESTS[@]}"; do
  max=$(result_field "$W/ref.json" tests "$t" max_points)
  expect_scored "$W/ref.json" "$t" "passed $max $max"
done
expect_test "$W/ref.json" "predict_gpu: primes 37 x 13, d = 2" status not_graded "GPU tests not run with --device none"

# 2. The skeleton: found as Python from regression.py, builds, scores 0, names a prediction.
run_grade skel lab02 "$SKEL" --device none --no-perf --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" track python "regression.py alone is the Python track"
expect_field "$W/skel.json" build.ok true "the skeleton builds"
expect_test "$W/skel.json" "predict_serial: primes 37 x 13, d = 2" status failed "the skeleton's zeros fail"
expect_test_says "$W/skel.json" "predict_serial: primes 37 x 13, d = 2" "y_hat\[[0-9]+\]" "the first wrong prediction is named"

# 3. A lambda sent to a pool: the parallel tests fail, naming pickling.
mkdir -p "$W/lambda" && cp "$REF/regression.py" "$W/lambda/"
printf '\n\ndef predict_parallel(p, h, workers):\n    with multiprocessing.Pool(workers) as pool:\n        return np.concatenate(pool.map(lambda q: predict_serial(p, h)[q:q + 1], range(p.m)))\n' >>"$W/lambda/regression.py"
run_grade lambda lab02 "$W/lambda" --device none --no-perf --work-dir "$W/work" --json "$W/lambda.json"
expect_scored "$W/lambda.json" "predict_serial: d = 17" "passed 3 3" "the serial part still passes"
expect_test "$W/lambda.json" "predict_parallel: more workers than queries" status failed "a pool given a lambda fails"
expect_test_says "$W/lambda.json" "predict_parallel: more workers than queries" "[Pp]ickl" "the failure names pickling"

# 4. A serial predict_parallel, graded --only with its speed test: correct, measured
# against the Python reference, and no parallel points (one process, one thread). The
# grid search's speed test (60 s here) is left out: the same observation of one process
# and one thread fails a single-threaded grid search in observed_parallelism.sh (lab02,
# C++), and the reference's grading above passes it.
mkdir -p "$W/serial" && cp "$REF/regression.py" "$W/serial/"
printf '\n\ndef predict_parallel(p, h, workers):\n    return predict_serial(p, h)\n' >>"$W/serial/regression.py"
run_grade serial lab02 "$W/serial" --device none --work-dir "$W/work" --json "$W/serial.json" \
  --only "predict_parallel: 2000 x 500, all cores" --only "parallel speedup"
expect_scored "$W/serial.json" "predict_parallel: 2000 x 500, all cores" "passed 5 5" "a serial predict_parallel is correct"
expect_test "$W/serial.json" "parallel speedup" points "0" "no parallel points for serial work"
expect_test_says "$W/serial.json" "parallel speedup" "1 process, 1 thread" "the message counts one process, one thread"
expect_test "$W/serial.json" "grid search speedup" status not_graded "the test left out by --only is not graded"
finish
