#!/usr/bin/env bash
# lab03's Python track in Numba's CUDA simulator (--device sim), each submission graded
# once: the Python reference gets every correctness point and its speed tests are not
# graded here (the coalescing counter too: Numba's simulator counts no traffic); the
# skeleton gets 0, each test naming an unwritten element and what to do; a fake with an
# unguarded kernel fails naming its line and the guard, and its grids rounded down fail
# naming the rounding (one grading for both: a Python grading costs a Numba start-up a test).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
SKEL="$PARLAB_SOURCE_DIR/labs/lab03-cuda-kernels/skeleton/python"
FAKE="$PARLAB_SOURCE_DIR/tests/fakes/lab03/python_guard_and_grid"

# 1. The Python reference: full correctness marks, the performance tests not graded here.
run_grade ref lab03 --reference --language python --device sim --work-dir "$W/work" --json "$W/ref.json"
expect_rc ref 0
expect_field "$W/ref.json" track python "the result names the Python track"
expect_field "$W/ref.json" device.mode sim "kernels in the simulator"
expect_score "$W/ref.json" 60 100 "every correctness point, no performance point"
expect_no_test "$W/ref.json" "failed|partial|skipped" "no correctness test lost"
expect_scored "$W/ref.json" "heat_solve, to a tolerance" "passed 5 5"
expect_scored "$W/ref.json" "hidden fresh data: heat_solve" "passed 5 5" "the hidden solve, on fresh data"
expect_test "$W/ref.json" "matrix_scale bandwidth (2D grid)" status not_graded "no coalescing counter in Numba's simulator"
expect_test_says "$W/ref.json" "matrix_scale bandwidth (2D grid)" "not graded here"

# 2. The skeleton: found as Python from kernels.py, builds, 0 points, each test says what next.
run_grade skel lab03 "$SKEL" --device sim --no-perf --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" track python "kernels.py alone is the Python track"
expect_field "$W/skel.json" build.ok true "the skeleton builds"
expect_score "$W/skel.json" 0 100
expect_test_says "$W/skel.json" "vector_add, n = 257 (block size + 1)" "grid must cover all n elements" "the next step: cover every element"
expect_test_says "$W/skel.json" "heat_solve, fixed 57 steps (tol = 0)" "iterations|nan" "the solve names what is missing"

# 3. Launch mistakes: no bounds check names the line; grids rounded down name the rounding.
line=$(line_of "$FAKE/kernels.py" "no .if i < n")
run_grade fake lab03 "$FAKE" --device sim --no-perf --work-dir "$W/work" --json "$W/fake.json"
expect_rc fake 1
expect_test "$W/fake.json" "saxpy, n = 257" status failed "an unguarded kernel fails"
expect_test_says "$W/fake.json" "saxpy, n = 257" "IndexError.*out of bounds" "the simulator's out-of-bounds error"
expect_test_says "$W/fake.json" "saxpy, n = 257" "kernels\.py:$line\b" "the finding names the kernel's line ($line)"
expect_test_says "$W/fake.json" "saxpy, n = 257" "if i < n" "and the guard to add"
expect_scored "$W/fake.json" "vector_add, n = 255 (block size - 1)" "failed 0 2" "a 1D grid rounded down: no block at all for 255"
expect_test_says "$W/fake.json" "vector_add, n = 100003 (prime)" "4096..4098.*never written.*grid must cover all n elements" "the message names the uncovered tail and the cause"
expect_test "$W/fake.json" "matrix_scale, 509 x 33 (tall)" status failed "a 2D grid rounded down fails"
expect_test_says "$W/fake.json" "matrix_scale, 509 x 33 (tall)" "partial last tile.*rounded up" "the message names the 2D rounding"
finish
