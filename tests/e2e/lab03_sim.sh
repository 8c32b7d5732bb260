#!/usr/bin/env bash
# lab03 in the simulation backend (no GPU needed): the reference passes every
# correctness test (performance tests are skipped, said so), and the skeleton compiles,
# runs, scores 0 and exits 1 with messages that say what is wrong (poisoned outputs).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
export PARLAB_SIM_ALLOW_EXITED_AT_BARRIER=1

fake_result ref lab03 reference -  # the fake table's grading
expect_rc ref 0
expect_field "$W/ref.json" score 68 "reference gets every correctness point (60) and the coalescing check's 8 in sim"
expect_field "$W/ref.json" graded_max_score 68 "68 graded here"
expect_test "$W/ref.json" "matrix_scale bandwidth (2D grid)" points 8 "the coalescing check stands in for the bandwidth test"
expect_no_test "$W/ref.json" failed "no reference test fails"
expect_test "$W/ref.json" "heat_solve, to a tolerance" status passed "iteration count matches the CPU reference"
expect_test "$W/ref.json" "hidden fresh data: heat_solve" status passed "fresh-seed solve passes"
expect_test "$W/ref.json" "vector_add bandwidth" status not_graded "the other performance tests are not graded here"
expect_test_says "$W/ref.json" "vector_add bandwidth" "not graded here: the simulation backend" "the reason is given"
expect_message "$W/ref.json" "^simulation mode" "sim banner among the notes"

run_grade skel lab03 --device sim --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" score 0 "skeleton scores 0"
expect_field "$W/skel.json" graded_max_score 68 "of 68 graded here"
expect_message "$W/skel.json" "c\[0\]: expected [-0-9.e]+, got (-?nan|NaN)" "vector_add: unwritten output shows as NaN"
expect_message "$W/skel.json" "never written \(outputs are poisoned" "poison explained"
expect_test_says "$W/skel.json" "heat_solve, to a tolerance" "iterations\[0\]: expected [0-9]+, got 0" "heat_solve: step count named"
expect_no_test "$W/skel.json" passed "no skeleton test passes"
# A solver that reports one step fewer than it ran: the iteration count differs, with
# the hint for too few steps.
SUB="$W/steps_off_by_one"
mkdir -p "$SUB"
cp "$PARLAB_SOURCE_DIR/reference/lab03-cuda-kernels/kernels.cu" "$SUB/"
sed -i -e 's/^  return steps;$/  return steps - 1;/' "$SUB/kernels.cu"
if cmp -s "$PARLAB_SOURCE_DIR/reference/lab03-cuda-kernels/kernels.cu" "$SUB/kernels.cu"; then
  fail "the fake did not change the step count"; fi
run_grade steps lab03 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/steps.json"
expect_rc steps 1
expect_test "$W/steps.json" "heat_solve, to a tolerance" status failed "the off-by-one solve fails"
expect_test_says "$W/steps.json" "heat_solve, to a tolerance" "iterations\[0\]: expected [0-9]+, got [0-9]+.*Hint: fewer steps than the reference" \
  "with the iteration-count hint"
# Kernels in headers in sub-folders (kernels/elementwise.cuh; kernels/heat/step.cuh
# includes its neighbour reduce.cuh; common/sizes.hpp): staged at the same paths,
# rewritten under sim/, full correctness marks; a source in a sub-folder is said to be
# not compiled.
SUB="$W/subfolders"
rm -rf "$SUB"; cp -r "$PARLAB_SOURCE_DIR/tests/fakes/lab03/subfolder_headers" "$SUB"
mkdir -p "$SUB/old"; cp "$SUB/kernels.cu" "$SUB/old/kernels_v1.cu"
run_grade subfolders lab03 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/subfolders.json"
expect_rc subfolders 0
expect_field "$W/subfolders.json" score 60 "sub-folder headers: every correctness point"
expect_field "$W/subfolders.json" graded_max_score 60 "of 60 graded here"
expect_field "$W/subfolders.json" build.diagnostics ".*old/kernels_v1.cu will not be compiled: lab03 compiles only kernels.cu and takes only headers from sub-folders.*" \
  "a source in a sub-folder is said not to be compiled"
# A folder given as a link is refused by name, before anything is compiled.
ln -s "$SUB/kernels" "$SUB/linked"
run_grade linked lab03 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/linked.json"
expect_rc linked 1
expect_field "$W/linked.json" build.ok false "a linked sub-folder fails the build"
expect_field "$W/linked.json" build.diagnostics.0.message "linked is a symbolic link to a folder; submit the folder itself.*" "a linked sub-folder is refused by name"
expect_field "$W/linked.json" build.diagnostics.0.file "linked" "the error names the link, as submitted (no grader folder)"
# heat_solve reads the device array change[] in host code instead of copying it back: a
# segfault on a GPU; here device memory is closed to host code, and the test fails
# naming the line of the read.
fake_result host_reads lab03 lab03/host_reads_device --no-perf  # the fake table's grading
LINE=$(line_of "$FAKE_DIR/kernels.cu" "largest = std::max\(largest, change\[b\]\)")
expect_rc host_reads 1
expect_test "$W/host_reads.json" "heat_solve, to a tolerance" status failed "host code reading device memory fails"
expect_test_says "$W/host_reads.json" "heat_solve, to a tolerance" "host code read device memory at kernels.cu:$LINE: a device pointer is only valid inside kernels" \
  "the message names the read's line and device memory"
expect_test "$W/host_reads.json" "vector_add, n = 1" status passed "the untouched functions pass"
finish
