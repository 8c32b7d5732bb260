#!/usr/bin/env bash
# Correct code the simulator does not run is "not graded here", never a failure
# (docs/simulation.md, "Not supported, said so"): lab04 with sum reading its lane id by
# inline PTX and max_atomic waiting at a cuda::barrier of device scope
# (tests/fakes/lab04/needs_gpu_features.patch), graded once with --device sim --no-perf:
#   - it builds (the inline PTX statement is not refused);
#   - the sum tests and the max_atomic tests are not graded, each message naming the
#     feature and its line in the student's file; no points for them, none lost;
#   - every other correctness test is graded, and passes;
#   - the score equals the points graded here (37 of 37, 100 in all): nothing was lost.
# And lab04 including <cuda_fp16.h>, which the simulator does not provide
# (tests/fakes/lab04/needs_gpu_header.patch): the sim build stops, but every test is
# "not graded here: needs a GPU (<cuda_fp16.h> at sum_reduce.cu:LINE)", none failed.
# And lab04 whose lines differ between what the simulator and a GPU build compile
# (compile/compiled_views): the racy ++ under #ifdef __CUDA_ARCH__ (arch_branch_race), the
# atomicAdd under #ifdef PARLAB_SIM (sim_branch_race), the race under an #if that reads
# __CUDA_ARCH_LIST__ (arch_list_branch), the race under __CUDA_ARCH__ == 800 behind a digit
# separator (arch_race_hidden_from_scan): the build is "needs a GPU", naming the line,
# every test left out, none failed. The agreement table's lab04/arch_guarded_helpers
# (#ifdef __CUDACC__, the programming guide's __CUDA_ARCH__ < 600 guard) is graded as usual.
# The gradings are the fake-gradings fixture's (fake_result: tests/fakes/grade_table.sh).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

fake_result ng lab04 lab04/needs_gpu_features --no-perf
R="$W/ng.json"
expect_rc ng 0
expect_field "$R" build.ok true "inline PTX and a device-scope barrier build in sim"
ptx_line=$(line_of "$FAKE_DIR/sum_reduce.cu" '^ *asm volatile')
barrier_line=$(line_of "$FAKE_DIR/max_reduce.cu" 'arrive_and_wait')
for t in "sum: one element" "sum: block size + 1, mixed signs" "sum: prime size, mixed signs" \
  "sum: spikes (order of summation)" "hidden fresh data: sum"; do
  expect_test "$R" "$t" status not_graded "$t: not graded (inline PTX)"
  expect_test "$R" "$t" points '0(\.0)?' "$t: no points"
  expect_test_says "$R" "$t" "^not graded here: needs a GPU \(inline PTX \(asm\) at sum_reduce\.cu:$ptx_line\)" \
    "$t: names inline PTX at sum_reduce.cu:$ptx_line"
done
for t in "max_atomic: one element" "max_atomic: block size + 1, max in the last block" \
  "max_atomic: all values negative"; do
  expect_test "$R" "$t" status not_graded "$t: not graded (cuda::barrier of device scope)"
  expect_test_says "$R" "$t" \
    "^not graded here: needs a GPU \(cuda::barrier of device or system scope at max_reduce\.cu:$barrier_line\)" \
    "$t: names the barrier at max_reduce.cu:$barrier_line"
done
# The others are graded as usual; no test failed, none was stopped as a fault.
expect_no_test "$R" 'failed|error|inconclusive' "no test failed: the stops are not faults"
for t in "max_block: one element" "max_block: 300007 elements, max first" \
  "histogram: 4096 bins, skewed keys" "hidden fresh data: histogram"; do
  expect_test "$R" "$t" status passed "$t: graded, passed"
done
expect_score "$R" 37 100 "score 37 of 100"
expect_field "$R" graded_max_score '37(\.0)?' "37 points graded here: not-graded tests lose nothing"
total_says() { expect_in "$W/ng.out" "$1" "$2"; }  # text: the reason in the report's total line is the subject
total_says '8 points needs a GPU \(cuda::barrier of device or system scope at max_reduce\.cu' "the total names the barrier's points"
total_says '15 points needs a GPU \(inline PTX \(asm\) at sum_reduce\.cu' "the total names the inline PTX's points"
expect_no_message "$R" 'simulator found: ' "no finding listed: the stop is the tests' own message"

fake_result hdr lab04 lab04/needs_gpu_header --no-perf
R="$W/hdr.json"
include_line=$(line_of "$FAKE_DIR/sum_reduce.cu" '^#include <cuda_fp16.h>')
expect_field "$R" build.ok false "the sim build stopped at <cuda_fp16.h>"
expect_field "$R" build.needs_gpu "<cuda_fp16.h> at sum_reduce\.cu:$include_line" "the build names the header and its include line"
expect_no_test "$R" 'passed|failed|error|inconclusive' "every test is left out, none failed"
expect_test_says "$R" "sum: one element" "^not graded here: needs a GPU \(<cuda_fp16.h> at sum_reduce\.cu:$include_line\)" \
  "a test names the header and its line"
expect_score "$R" 0 100 "score 0 of 100"
expect_field "$R" graded_max_score '0(\.0)?' "nothing graded here, so nothing lost"

# Lines compiled differently: the simulator would grade other code than a GPU runs.
views_case() {  # NAME FEATURE-REGEX WHAT
  local name=$1 feature=$2 what=$3
  fake_result "$name" lab04 "lab04/$name" --no-perf
  R="$W/$name.json"
  expect_field "$R" build.ok false "$name: no sim build ($what)"
  expect_field "$R" build.needs_gpu "$feature" "$name: the build names $what"
  expect_no_test "$R" 'passed|failed|error|inconclusive' "$name: every test left out, none failed"
  expect_test_says "$R" "histogram: 4096 bins, skewed keys" "^not graded here: needs a GPU \($feature\)" \
    "$name: a test names what and where"
  expect_score "$R" 0 100 "$name: score 0 of 100"
  expect_field "$R" graded_max_score '0(\.0)?' "$name: nothing graded here, so nothing lost"
}
race_line=$(line_of "$PARLAB_SOURCE_DIR/reference/lab04-atomics-reductions/histogram.cu" 'atomicAdd\(&local\[keys')
views_case arch_branch_race "code nvcc for sm_[0-9]+ compiles and the simulator does not, at histogram\.cu:$((race_line + 1))" \
  "the GPU-only racy line"
views_case sim_branch_race "code the simulator compiles and nvcc's host pass does not, at histogram\.cu:$((race_line + 1))" \
  "the simulator-only atomicAdd line"
views_case arch_list_branch "code chosen by the GPU it is built for, at histogram\.cu:$race_line" \
  "the #if that reads __CUDA_ARCH_LIST__"
# The same race under #if __CUDA_ARCH__ == 800, behind a digit separator that a lexer
# taking it for a quote would read as opening a comment: every architecture is still
# compared, and sm_80's view keeps the race (5 lines inserted above it).
views_case arch_race_hidden_from_scan \
  "code nvcc for sm_80 compiles and the simulator does not, at histogram\.cu:$((race_line + 6))" \
  "the sm_80-only racy line"
finish
