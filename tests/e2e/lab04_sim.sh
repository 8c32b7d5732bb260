#!/usr/bin/env bash
# lab04 without a GPU (simulation backend): the reference passes every correctness
# test with the performance tests skipped, the skeleton scores 0 (exit 1) with the
# driver's teaching messages, and a sum made of one atomicAdd per element fails the
# "spikes" test (the order-of-summation lesson) while passing the benign ones.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
LAB="$PARLAB_SOURCE_DIR/labs/lab04-atomics-reductions"

# 1. The reference: 60 correctness points, performance skipped with the reason.
start=$(date +%s)
run_grade ref lab04 --reference --device sim --work-dir "$W/work" --json "$W/ref.json"
echo "note: reference correctness suite in sim took $(( $(date +%s) - start )) s"
expect_rc ref 0
expect_field "$W/ref.json" score 60 "reference gets every correctness point"
expect_test "$W/ref.json" "sum: spikes (order of summation)" status passed "the spikes test passes"
expect_field "$W/ref.json" device.mode sim "the kernels ran in the simulator"
expect_message "$W/ref.json" "simulation mode .*your CUDA code ran on the CPU in parlab's simulator" "the report says the kernels ran in the simulator"
expect_no_test "$W/ref.json" failed "no failing test"

# 2. The skeleton: compiles, runs, scores 0, and says why.
run_grade skel lab04 --device sim --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" score 0 "the skeleton scores 0"
expect_message "$W/skel.json" "left \*result at -1, the poison value" "max: poisoned result explained"
expect_message "$W/skel.json" "\*result is NaN" "sum: NaN result explained"
expect_message "$W/skel.json" "every bin is still -1" "histogram: unwritten bins explained"

# 3. One atomicAdd per element: right on small benign data, wrong on the spikes.
SUB="$W/sum_per_element"
reference_with lab04 "$SUB"
cat >"$SUB/sum_reduce.cu" <<'CU'
#include "api.hpp"
__global__ void add_each(const float* values, int n, float* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(result, values[i]);
}
namespace lab04 {
void sum(const float* values, int n, float* result) {
  cudaMemset(result, 0, sizeof(float));
  add_each<<<(n + 255) / 256, 256>>>(values, n, result);
}
}  // namespace lab04
CU
# The reference's files include the harness's cuda_check.hpp; a submission may not see
# it, so drop the include and the macro for this fake.
sed -i -e '/parlab\/harness\/gpu\/cuda_check.hpp/d' -e 's/PARLAB_CUDA_CHECK(\(.*\));$/(void)\1;/' \
  "$SUB/max_reduce.cu" "$SUB/histogram.cu" "$SUB/block_reduce.cuh"
run_grade per_element lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/pe.json"
expect_rc per_element 1
SPIKES="sum: spikes (order of summation)"
expect_test "$W/pe.json" "$SPIKES" status failed "the spikes test fails"
expect_test "$W/pe.json" "sum: prime size, mixed signs" status passed "a benign sum test passes"
expect_test "$W/pe.json" "sum: block size + 1, mixed signs" status passed "another benign sum test passes"
expect_test_says "$W/pe.json" "$SPIKES" "Every difference is within 100x the tolerance\. Hint: close, but past a tolerance that a float tree sum's rounding stays well inside" \
  "the near miss is named"
# Skipped elements come first in the hint (a sum on too few blocks is close too), then
# this fake's cause: one long chain of atomicAdds rounds this badly.
expect_test_says "$W/pe.json" "$SPIKES" "a long serial chain of additions \\(.*one atomicAdd per element\\) also rounds this badly: if yours has one, sum each block in a tree" \
  "the hint names the serial chain and the tree-sum fix"
# (No exact total: on the hidden fresh data, 123457 elements, the one-by-one sum's
# error is a random walk that reaches the tolerance now and then.)
finish
