#!/usr/bin/env bash
# Sim mode teaches instead of hiding (issue 15): fakes under tests/fakes/ graded with
# --device sim get the verdict and the message a teacher would give.
#   - an early return before __syncthreads(): right answer, points kept, the finding
#     names the barrier's line in the student's file;
#   - shared-memory counters never zeroed: poisoned shared memory makes it fail;
#   - device memory never freed: points kept, the finding names the cudaMalloc line;
#   - a plain ++ on shared counters: a data race, the test fails (the race check);
#   - Thrust: a "not supported by the simulator" compile error;
#   - std::min in a kernel: nvcc's error, where nvcc is installed;
#   - lab03 matrix_scale down a column: the memory-access counters' hint, points kept;
#   - shuffles reading lanes outside their mask: the finding, and a wrong sum;
#   - the sum zeroed inside the kernel by block 0 ("it runs first"): right in one order, wrong in
#     another of the seeded orders every run uses: the test fails and says why;
#   - an interleaved reduction (t % (2 * stride)): the warp-divergence hint, points kept.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
FAKES="$PARLAB_SOURCE_DIR/tests/fakes"
REF4="$PARLAB_SOURCE_DIR/reference/lab04-atomics-reductions"

# A lab04 submission: the reference's files with one replaced by a fake.
lab04_fake() {  # NAME FAKE_FILE
  local dir="$W/$1"
  mkdir -p "$dir"
  cp "$REF4/max_reduce.cu" "$REF4/sum_reduce.cu" "$REF4/histogram.cu" "$REF4/block_reduce.cuh" "$dir/"
  cp "$2" "$dir/"
  echo "$dir"
}

# 1. Early return before the barrier: passes, with the finding and its line.
SUB=$(lab04_fake early_return "$FAKES/lab04/early_return_max/max_reduce.cu")
run_grade early lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/early.json"
expect_rc early 0
expect_in "$W/early.out" "Total: 60(\.0+)? / (100|60 graded here)" "the forbidden pattern keeps its points"
expect_in "$W/early.json" "early exit before a barrier: in kernel max_block_kernel" "the early exit is reported"
expect_in "$W/early.json" "all outputs match \(simulator: early exit before the __syncthreads\(\) at max_reduce.cu:31" "the finding names the barrier's line"
expect_in "$W/early.json" "points unchanged" "the feedback says the points are kept"
expect_in "$W/early.out" "Note: simulator found: early exit before the __syncthreads\(\) at max_red" "the console notes the finding"
expect_not_in "$W/early.json" "at /[^ ]*max_reduce.cu" "no build-folder path in the finding"

# 2. Shared counters never zeroed: poisoned shared memory, wrong counts.
SUB=$(lab04_fake not_zeroed "$FAKES/lab04/histogram_not_zeroed/histogram.cu")
run_grade zero lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/zero.json"
expect_rc zero 1
expect_in "$W/zero.out" "histogram: prime size, 256 bins +failed" "unzeroed shared counters fail"
expect_in "$W/zero.out" "max_block: prime size +passed" "the untouched kernels pass"

# 3. A leak: points kept, the cudaMalloc line named.
SUB="$W/leak"
mkdir -p "$SUB"
cp "$FAKES/lab05/leak/matmul.cu" "$SUB/"
run_grade leak lab05 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/leak.json"
expect_rc leak 0
expect_in "$W/leak.out" "Total: 60(\.0+)? / (100|60 graded here)" "a leak keeps its points"
expect_in "$W/leak.json" "device memory leak: [0-9]+ cudaMalloc allocations? \([0-9]+ bytes\) never freed with cudaFree, made at matmul.cu:58" "the leak names the cudaMalloc line"
expect_in "$W/leak.json" "simulator: device memory never freed, allocated at matmul.cu:58" "the summary names the leak"

# 4. A plain ++ on shared histogram counters: right counts in the simulator, but a
#    race: the test fails with both lines and the barrier named.
SUB=$(lab04_fake race "$FAKES/lab04/histogram_race/histogram.cu")
run_grade race lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/race.json"
expect_rc race 1
expect_in "$W/race.out" "histogram: prime size, 256 bins +failed" "the racy histogram fails"
expect_in "$W/race.json" "right answer here, but the kernel has a data race" "the failure says why"
expect_in "$W/race.json" "data race on shared array .local. \(extern __shared__, byte [0-9]+\) in kernel histogram_kernel" "the race names the array"
expect_in "$W/race.json" "at histogram.cu:24, thread \([0-9]+,0,0\) (reads|writes) it at histogram.cu:24" "the race names both lines"
expect_in "$W/race.json" "the last __syncthreads\(\) passed was at histogram.cu:21" "the race names the last barrier"
expect_in "$W/race.out" "max_block: prime size +passed" "the untouched kernels pass"

# 5. Thrust: a clear "not supported by the simulator" compile error.
run_grade thrust lab05 "$FAKES/lab05/thrust" --device sim --no-perf --work-dir "$W/work"
expect_rc thrust 1
expect_in "$W/thrust.out" "Thrust \(<thrust/device_vector.h>\) is not supported by the simulator" "Thrust is refused by name"

# 6. Code nvcc rejects (std::min in a kernel) fails in sim mode too where nvcc is
#    installed, with nvcc's message naming the student's file and line.
if grep -Eq '"nvcc" *: *"/' "$(dirname "$GRADE")/toolchain.json"; then
  run_grade nvcc lab05 "$FAKES/lab05/nvcc_rejects" --device sim --no-perf --work-dir "$W/work"
  expect_rc nvcc 1
  expect_in "$W/nvcc.out" "nvcc_rejects/matmul.cu(\(22\)|:22): error: calling a constexpr __host__ function" "nvcc's message, on the student's line"
else
  echo "note: no nvcc in this build: the nvcc check is not exercised"
fi

# 7. lab03's matrix_scale with threads down a column: right answers, points kept, and
#    the memory-access counters' hint on the line.
run_grade uncoalesced lab03 "$FAKES/lab03/uncoalesced_scale" --device sim --no-perf \
  --work-dir "$W/work" --json "$W/uncoalesced.json"
expect_rc uncoalesced 0
expect_in "$W/uncoalesced.json" "uncoalesced loads at kernels.cu:45" "the hint names the load's line"
expect_in "$W/uncoalesced.json" "need 32 sectors per request; 4 is ideal: consecutive threads should access consecutive addresses" "the hint says what is ideal and why"

# 8. Shuffles reading lanes outside their mask (past the end in the last warp): the
#    finding names the shuffle's line; the sum on a size that is not a multiple of 32
#    is wrong.
SUB=$(lab04_fake shuffle "$FAKES/lab04/shuffle_outside_mask/sum_reduce.cu")
run_grade shuffle lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/shuffle.json"
expect_rc shuffle 1
expect_in "$W/shuffle.out" "sum: prime size, mixed signs +failed" "the sum with undefined shuffles fails"
expect_in "$W/shuffle.json" "__shfl_down_sync from an inactive lane at sum_reduce.cu:17" "the finding names the shuffle's line"

# 9. The result zeroed in the kernel by block 0 ("it runs first"): right in some
#    orders, wrong in others; the race check cannot see it (other blocks).
SUB=$(lab04_fake zeroed "$FAKES/lab04/zeroed_in_kernel/sum_reduce.cu")
run_grade zeroed lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/zeroed.json"
expect_rc zeroed 1
expect_in "$W/zeroed.out" "sum: prime size, mixed signs +failed" "the order-dependent sum fails"
# Every run uses its own seeded order: the first run may already be wrong (block 0 not
# first), or right and a re-run wrong; either way the test fails with the difference.
expect_in "$W/zeroed.json" "sum\\[0\\]: expected" "the failure shows the first difference"
if grep -q "wrong in another that started the blocks" "$W/zeroed.json"; then
  expect_in "$W/zeroed.json" "seed [0-9a-f]{16} right, seed [0-9a-f]{16} wrong" "an order-only failure names both seeds, to repeat it"
fi
expect_in "$W/zeroed.out" "max_block: prime size +passed" "the untouched kernels pass"

# 10. The textbook's interleaved reduction (t % (2 * stride) == 0): right answers,
#     points kept, and the divergence counter's hint with the line and both figures.
SUB=$(lab04_fake divergent "$FAKES/lab04/divergent_sum/sum_reduce.cu")
run_grade divergent lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/divergent.json"
expect_rc divergent 0
expect_in "$W/divergent.out" "Total: 60(\.0+)? / (100|60 graded here)" "divergence keeps its points"
expect_in "$W/divergent.json" "all outputs match \(simulator: warp divergence in kernel sum_block_kernel at sum_reduce.cu:24\)" "the hint names the branch's line"
expect_in "$W/divergent.json" "the code blocks a warp ran were run by only some of its threads \(sum_reduce.cu:24" "the hint says what diverges"
expect_in "$W/divergent.json" "\(this run: [0-9]+% of the code blocks a warp ran were run by only some of its threads; the reference on the same data: [0-9]+%\)" "the hint shows both runs' figures"
expect_not_in "$W/divergent.json" "simulator: warp divergence in kernel (max|histogram)" "the untouched kernels diverge as the reference's do: no hint"

# 11. The reference has no findings, and its answers do not depend on the order.
run_grade ref lab04 --reference --device sim --no-perf --work-dir "$W/work" --json "$W/ref.json"
expect_rc ref 0
expect_not_in "$W/ref.json" "the simulator found" "no findings on the reference"
expect_not_in "$W/ref.json" "in another order" "the reference's answers do not depend on the order"
finish
