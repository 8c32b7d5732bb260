#!/usr/bin/env bash
# Sim mode teaches instead of hiding: fakes under tests/fakes/ graded with
# --device sim get the verdict and the message a teacher would give.
#   - an early return before __syncthreads(): right answer, points kept, the finding
#     names the barrier's line in the student's file;
#   - shared-memory counters never zeroed: poisoned shared memory makes it fail;
#   - device memory never freed: points kept, the finding names the cudaMalloc line;
#   - a plain ++ on shared counters: a data race, the test fails (the race check);
#   - a race on large inputs only: every test of that task fails, naming where it was seen;
#   - Thrust: a "not supported by the simulator" compile error;
#   - std::min in a kernel: nvcc's error, where nvcc is installed;
#   - lab03 matrix_scale down a column: the memory-access counters' hint, points kept;
#   - shuffles reading lanes outside their mask: the finding, and a wrong sum;
#   - the sum zeroed inside the kernel by block 0 ("it runs first"): right in one order, wrong in
#     another of the seeded orders every run uses: the test fails and says why;
#   - an interleaved reduction (t % (2 * stride)): the warp-divergence hint, points kept.
# Every grading is the fake-gradings fixture's (fake_result: tests/fakes/grade_table.sh
# grades each line of tests/agreement/verdicts.tsv once per suite run).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
# Findings go into the test's message; a generated fake's lines are looked up (line_of).

# 1. Early return before the barrier: passes, with the finding and its line.
fake_result early lab04 lab04/early_return_max --no-perf
LINE=$(line_of "$FAKE_DIR/max_reduce.cu" '^  __syncthreads\(\);')
expect_rc early 0
expect_field "$W/early.json" score 60 "the forbidden pattern keeps its points"
expect_message "$W/early.json" "early exit before a barrier: in kernel max_block_kernel" "the early exit is reported"
expect_message "$W/early.json" "all outputs match \(simulator: early exit before the __syncthreads\(\) at max_reduce.cu:$LINE" "the finding names the barrier's line"
expect_message "$W/early.json" "points unchanged" "the feedback says the points are kept"
expect_message "$W/early.json" "^simulator found: early exit before the __syncthreads\(\) at max_reduce.cu:$LINE " "a note sums up the finding"
expect_no_message "$W/early.json" "at /[^ ]*max_reduce.cu" "no build-folder path in the finding"

# 2. Shared counters never zeroed: poisoned shared memory, wrong counts.
fake_result zero lab04 lab04/histogram_not_zeroed --no-perf
expect_rc zero 1
expect_test "$W/zero.json" "histogram: prime size, 256 bins" status failed "unzeroed shared counters fail"
expect_test_says "$W/zero.json" "histogram: prime size, 256 bins" "holds .*garbage was added in.*zero them and __syncthreads\(\)" \
  "unzeroed counters: garbage named (their int total wraps below n: not 'counts lost')"
expect_test "$W/zero.json" "max_block: prime size" status passed "the untouched kernels pass"

# 3. A leak: points kept, the cudaMalloc line named.
fake_result leak lab05 lab05/leak --no-perf
LINE=$(line_of "$FAKE_DIR/matmul.cu" "never freed")
expect_rc leak 0
expect_field "$W/leak.json" score 60 "a leak keeps its points"
expect_message "$W/leak.json" "device memory leak: [0-9]+ cudaMalloc allocations? \([0-9]+ bytes\) never freed with cudaFree, made at matmul.cu:$LINE" "the leak names the cudaMalloc line"
expect_message "$W/leak.json" "simulator: device memory never freed, allocated at matmul.cu:$LINE" "the summary names the leak"

# 4. A plain ++ on shared histogram counters: right counts in the simulator, but a
#    race: the test fails with both lines and the barrier named.
fake_result race lab04 lab04/histogram_race --no-perf
LINE=$(line_of "$FAKE_DIR/histogram.cu" "the race")
BARRIER=$(line_of "$FAKE_DIR/histogram.cu" "__syncthreads\(\);  // all zeroed before anyone counts")
expect_rc race 1
expect_test "$W/race.json" "histogram: prime size, 256 bins" status failed "the racy histogram fails"
expect_test_says "$W/race.json" "histogram: prime size, 256 bins" "right answer here, but the kernel has a data race" "the failure says why"
expect_message "$W/race.json" "data race on shared array .local. \(extern __shared__, byte [0-9]+\) in kernel histogram_kernel" "the race names the array"
expect_message "$W/race.json" "at histogram.cu:$LINE, thread \([0-9]+,0,0\) (reads|writes) it at histogram.cu:$LINE" "the race names both lines"
expect_message "$W/race.json" "the last __syncthreads\(\) passed was at histogram.cu:$BARRIER" "the race names the last barrier"
expect_test "$W/race.json" "max_block: prime size" status passed "the untouched kernels pass"

# 4b. A race on large inputs only (lab03 vector_add tallying its threads in a shared int):
# seen in the n = 100003 test's runs, it fails every vector_add test, each naming where
# it was seen; the other kernels' tests pass.
fake_result large_race lab03 lab03/vector_add_race_large_n --no-perf
LINE=$(line_of "$FAKE_DIR/kernels.cu" "visits \+= 1")
expect_test "$W/large_race.json" "vector_add, n = 100003 (prime)" status failed "the race fails the test whose runs saw it"
for t in "vector_add, n = 1" "vector_add, n = 255 (block size - 1)" "vector_add, n = 257 (block size + 1)"; do
  expect_test "$W/large_race.json" "$t" status failed "$t: the task's race fails it too"
  expect_test_says "$W/large_race.json" "$t" "task 'vector_add' has a data race, seen in test 'vector_add, n = 100003 \(prime\)'.*between kernels.cu:$LINE and kernels.cu:$LINE" "$t: names the test and the line"
done
expect_test "$W/large_race.json" "saxpy, n = 257" status passed "another task's tests pass"

# 5. Thrust: a clear "not supported by the simulator" compile error.
fake_result thrust lab05 lab05/thrust --no-perf
expect_rc thrust 1
expect_field "$W/thrust.json" build.ok false "Thrust does not build"
expect_field "$W/thrust.json" build.diagnostics ".*Thrust \(<thrust/device_vector.h>\) is not supported by the simulator.*" "Thrust is refused by name"

# 6. Code nvcc rejects (std::min in a kernel) fails in sim mode too where nvcc is
#    installed, with nvcc's message naming the student's file and line.
if [[ "$(result_field "$(dirname "$GRADE")/toolchain.json" nvcc 2>/dev/null)" == /* ]]; then
  fake_result nvcc lab05 lab05/nvcc_rejects --no-perf
  LINE=$(line_of "$FAKE_DIR/matmul.cu" "std::min\(M, M \+ 1\)")
  expect_rc nvcc 1
  expect_field "$W/nvcc.json" build.ok false "nvcc's refusal fails the build"
  expect_field "$W/nvcc.json" build.diagnostics.0.message "calling a constexpr __host__ function.*" "nvcc's message"
  expect_field "$W/nvcc.json" build.diagnostics.0.file "matmul.cu" "nvcc's error is in the student's file, as submitted"
  expect_field "$W/nvcc.json" build.diagnostics.0.line "$LINE" "nvcc's error is on the student's line"
else
  echo "note: no nvcc in this build: the nvcc check is not exercised"
fi

# 7. lab03's matrix_scale with threads down a column: right answers, points kept, and
#    the memory-access counters' hint on the line.
fake_result uncoalesced lab03 lab03/uncoalesced_scale --no-perf
LINE=$(line_of "$FAKE_DIR/kernels.cu" "x down a column")
LINE=$((LINE + 4))  # out[i] = alpha * in[i], four lines below the row and column
[ "$(sed -n "${LINE}p" "$FAKE_DIR/kernels.cu")" = "    out[i] = alpha * in[i];" ] || fail "uncoalesced_scale: the load is not at kernels.cu:$LINE"
expect_rc uncoalesced 0
expect_message "$W/uncoalesced.json" "uncoalesced loads at kernels.cu:$LINE" "the hint names the load's line"
# The figures come from the blocks each run samples (an edge block of a 33-wide matrix
# needs fewer sectors: 29, not 32, in one CI run): the sentence, not the numbers.
expect_message "$W/uncoalesced.json" "need [0-9]+ sectors per request; [0-9]+ is ideal: consecutive threads should access consecutive addresses" "the hint says what is ideal and why"

# 8. Shuffles reading lanes outside their mask (past the end in the last warp): the
#    finding names the shuffle's line; the sum on a size that is not a multiple of 32
#    is wrong.
fake_result shuffle lab04 lab04/shuffle_outside_mask --no-perf
LINE=$(line_of "$FAKE_DIR/sum_reduce.cu" "v \+= __shfl_down_sync")
expect_rc shuffle 1
expect_test "$W/shuffle.json" "sum: prime size, mixed signs" status failed "the sum with undefined shuffles fails"
expect_message "$W/shuffle.json" "__shfl_down_sync from an inactive lane at sum_reduce.cu:$LINE" "the finding names the shuffle's line"

# 9. The result zeroed in the kernel by block 0 ("it runs first"): right in some
#    orders, wrong in others; the race check cannot see it (other blocks).
fake_result zeroed lab04 lab04/zeroed_in_kernel --no-perf
expect_rc zeroed 1
expect_test "$W/zeroed.json" "sum: prime size, mixed signs" status failed "the order-dependent sum fails"
# Every run uses its own seeded order: the first run may already be wrong (block 0 not
# first), or right and a re-run wrong; either way the test fails with the difference.
expect_test_says "$W/zeroed.json" "sum: prime size, mixed signs" "sum\\[0\\]: expected" "the failure shows the first difference"
# Only where this test (not another one of the grading) failed in an order only.
if [[ "$(result_field "$W/zeroed.json" tests "sum: prime size, mixed signs" message)" == *"wrong in another that started the blocks"* ]]; then
  expect_test_says "$W/zeroed.json" "sum: prime size, mixed signs" "seed [0-9a-f]{16} right, seed [0-9a-f]{16} wrong" "an order-only failure names both seeds, to repeat it"
fi
expect_test "$W/zeroed.json" "max_block: prime size" status passed "the untouched kernels pass"

# 10. The textbook's interleaved reduction (t % (2 * stride) == 0): right answers,
#     points kept, and the divergence counter's hint with the line and both figures.
fake_result divergent lab04 lab04/divergent_sum --no-perf
LINE=$(line_of "$FAKE_DIR/sum_reduce.cu" "divergent in every warp")
expect_rc divergent 0
expect_field "$W/divergent.json" score 60 "divergence keeps its points"
expect_message "$W/divergent.json" "all outputs match \(simulator: warp divergence in kernel sum_block_kernel at sum_reduce.cu:$LINE\)" "the hint names the branch's line"
expect_message "$W/divergent.json" "of the work its warps ran \(code weighted by length and runs\) was run by only some of their threads \(sum_reduce.cu:$LINE" "the hint says what diverges"
expect_message "$W/divergent.json" "\(this run: [0-9]+% of the work its warps ran was run by only some of their threads; the reference on the same data: [0-9]+%\)" "the hint shows both runs' figures"
expect_no_message "$W/divergent.json" "simulator: warp divergence in kernel (max|histogram)" "the untouched kernels diverge as the reference's do: no hint"

# 11. The reference has no findings, and its answers do not depend on the order.
fake_result ref lab04 reference --no-perf
expect_rc ref 0
expect_no_message "$W/ref.json" "the simulator found" "no findings on the reference"
expect_no_message "$W/ref.json" "in another order" "the reference's answers do not depend on the order"
finish
