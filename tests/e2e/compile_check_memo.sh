#!/usr/bin/env bash
# nvcc's check of a sim build, and the comparison of its compiled views, are remembered
# by what they read (docs/simulation.md, "nvcc as a compile check"): in one work folder, a
# copy of lab04's reference is checked and viewed file by file; a second copy with one
# .cu changed is checked and viewed on that file only, the build log naming the two it
# did not check or view again; code nvcc rejects fails at both of two gradings, with
# nvcc's message each time, and no failing check is remembered; lines a GPU compiles and
# the simulator does not are found at both of two gradings, and no differing views are
# remembered. Copies, not --reference, so no line of the fake table is graded again; no
# order re-runs (the builds are what this script checks).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_SIM_ORDER_RERUNS=0
REF="$PARLAB_SOURCE_DIR/reference/lab04-atomics-reductions"
MEMO="$W/work/compile-checks"
for copy in first changed rejected arch; do mkdir -p "$W/$copy" && cp "$REF"/*.cu "$REF"/*.cuh "$W/$copy/"; done
echo "// a student's comment" >>"$W/changed/histogram.cu"
printf '\n#include <algorithm>\n__global__ void memo_probe(int* out) { *out = std::min(out[0], out[1]); }\n' \
  >>"$W/rejected/sum_reduce.cu"
printf '\n#ifdef __CUDA_ARCH__\n__device__ int arch_probe() { return 1; }\n#endif\n' >>"$W/arch/max_reduce.cu"
# The build log in a file, so that grep -q ending early cannot fail the pipe (pipefail).
log_of() { result_field "$W/$1.json" build log >"$W/$1.log"; echo "$W/$1.log"; }
checks() { find "$MEMO" -maxdepth 1 -type f 2>/dev/null | wc -l; }
views() { find "$MEMO/views" -type f 2>/dev/null | wc -l; }

run_grade first lab04 "$W/first" --device sim --no-perf --work-dir "$W/work" --json "$W/first.json"
expect_rc first 0
[ "$(checks)" = 3 ] && pass "three passes kept, one per .cu" || fail "$(checks) passes kept after the first grading, expected 3"
grep -q "passed before" "$(log_of first)" && fail "the first grading reused a check it never made" ||  # text: the build log's note (result.json build.log) is the subject
  pass "the first grading checked every file"
[ "$(views)" = 3 ] && pass "three agreements of compiled views kept, one per .cu" ||
  fail "$(views) agreements of compiled views kept after the first grading, expected 3"

run_grade changed lab04 "$W/changed" --device sim --no-perf --work-dir "$W/work" --json "$W/changed.json"
expect_rc changed 0
for f in max_reduce.cu sum_reduce.cu; do
  grep -q "check of $f: passed before on the same sources" "$(log_of changed)" && pass "$f: not checked again" ||  # text: the build log's note (result.json build.log) is the subject
    fail "$f: the unchanged file was checked again (build log: $(head -5 "$(log_of changed)"))"
done
grep -q "check of histogram.cu: passed before" "$(log_of changed)" && fail "histogram.cu changed but was not checked" ||  # text: the build log's note (result.json build.log) is the subject
  pass "histogram.cu: changed, checked again"
[ "$(checks)" = 4 ] && pass "its pass kept too" || fail "$(checks) passes kept, expected 4"
for f in max_reduce.cu sum_reduce.cu; do
  grep -q "compiled views of $f: agreed before on the same sources" "$(log_of changed)" && pass "$f: not viewed again" ||  # text: the build log's note (result.json build.log) is the subject
    fail "$f: the unchanged file's views were made again (build log: $(head -6 "$(log_of changed)"))"
done
grep -q "compiled views of histogram.cu: agreed before" "$(log_of changed)" && fail "histogram.cu changed but its views were not made" ||  # text: the build log's note (result.json build.log) is the subject
  pass "histogram.cu: changed, viewed again"
[ "$(views)" = 4 ] && pass "its agreement kept too" || fail "$(views) agreements kept, expected 4"

for n in 1 2; do
  run_grade "rejected$n" lab04 "$W/rejected" --device sim --no-perf --work-dir "$W/work" --json "$W/rejected$n.json"
  expect_rc "rejected$n" 1
  expect_field "$W/rejected$n.json" build.ok false "grading $n: the build fails"
  grep -q "__host__ function" "$(log_of "rejected$n")" && pass "grading $n: nvcc's own message" ||  # text: the build log's note (result.json build.log) is the subject
    fail "grading $n: no nvcc message in the build log: $(head -5 "$(log_of "rejected$n")")"
done
[ "$(checks)" = 4 ] && pass "no failing check kept" || fail "$(checks) passes kept after the rejected gradings, expected 4"

for n in 1 2; do
  run_grade "arch$n" lab04 "$W/arch" --device sim --no-perf --work-dir "$W/work" --json "$W/arch$n.json"
  expect_field "$W/arch$n.json" build.ok false "grading $n: lines only a GPU compiles: the build is not graded here"
  needs=$(result_field "$W/arch$n.json" build needs_gpu)
  [[ "$needs" == *"max_reduce.cu:"* ]] && pass "grading $n: needs a GPU, at max_reduce.cu ($needs)" ||
    fail "grading $n: needs_gpu is '$needs', expected the line in max_reduce.cu"
done
[ "$(views)" = 4 ] && pass "differing views never kept" ||
  fail "$(views) agreements kept after the arch gradings, expected 4 (its other two files kept before)"
finish
