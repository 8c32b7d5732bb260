#!/usr/bin/env bash
# A sim build made where the toolchain has no nvcc (the CPU image, a Gradescope
# container) cannot compare the lines it compiles with nvcc's, so it grades only sources
# whose conditionals decide alike for the simulator and a GPU (compile/sim_without_nvcc,
# docs/simulation.md "The code a GPU compiles, and no other"). Graded with this build's
# toolchain.json, nvcc taken out, --device sim --no-perf:
#   - lab04's reference: graded as usual, all 60 correctness points;
#   - the atomicAdd under #ifdef PARLAB_SIM (lab04/sim_branch_race) and the racy ++ under
#     #ifdef __CUDA_ARCH__ (lab04/arch_branch_race): the build "needs a GPU", naming the
#     macro and the line, every test left out, none failed, nothing lost;
#   - a port of cuda-samples' helper_cuda.h, whose guards test what is included
#     (sim_patterns/lab03_float4_helper_cuda): graded as usual;
#   - the programming guide's __CUDA_ARCH__ < 600 guard (lab04/arch_guarded_helpers),
#     graded where nvcc can compare: left to a GPU here, said so.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
TC="$W/toolchain-without-nvcc.json"
python3 - "$(dirname "$GRADE")/toolchain.json" "$TC" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
t["nvcc"] = ""
t["cuda"] = False
t["nvcc_architectures"] = []
json.dump(t, open(sys.argv[2], "w"), indent=1)
PY

PARLAB_TOOLCHAIN="$TC" run_grade ref lab04 --reference --device sim --no-perf --json "$W/ref.json"
R="$W/ref.json"
expect_rc ref 0
expect_field "$R" build.ok true "the reference builds without nvcc"
expect_no_test "$R" 'failed|error|inconclusive' "no test of the reference failed"
expect_score "$R" 60 100 "the reference: all 60 correctness points (--no-perf)"
expect_field "$R" graded_max_score '60(\.0)?' "every correctness test graded"

# Public code's guards on what is included (cuda-samples' helper_cuda.h: #ifdef
# __DRIVER_TYPES_H__, CUBLAS_API_H_, _CUFFT_H_, CURAND_H_) decide alike: graded.
fake_submission lab03 sim_patterns/lab03_float4_helper_cuda
PARLAB_TOOLCHAIN="$TC" run_grade helper lab03 "$FAKE_DIR" --device sim --no-perf --json "$W/helper.json"
R="$W/helper.json"
expect_rc helper 0
expect_field "$R" build.ok true "helper_cuda.h's guards: the build is graded without nvcc"
expect_no_test "$R" 'failed|error|inconclusive' "helper_cuda.h: no test failed"
expect_some_test "$R" status passed "helper_cuda.h: its correctness tests graded and passed"

views_case() {  # NAME MACRO FILE LINE-REGEX WHAT
  local name=$1 macro=$2 file=$3 line
  fake_submission lab04 "lab04/$name"
  line=$(line_of "$FAKE_DIR/$file" "$4")
  PARLAB_TOOLCHAIN="$TC" run_grade "$name" lab04 "$FAKE_DIR" --device sim --no-perf --json "$W/$name.json"
  R="$W/$name.json"
  local feature="a conditional on $macro, which only nvcc can decide, at $file:$line"
  expect_field "$R" build.ok false "$name: no sim build ($5)"
  expect_field "$R" build.needs_gpu "$feature" "$name: the build names $macro at $file:$line"
  expect_no_test "$R" 'passed|failed|error|inconclusive' "$name: every test left out, none failed"
  expect_test_says "$R" "histogram: 4096 bins, skewed keys" \
    "^not graded here: needs a GPU \($feature\): the simulator grades only the lines a GPU build compiles" \
    "$name: a test names what, where and why"
  expect_field "$R" graded_max_score '0(\.0)?' "$name: nothing graded here, so nothing lost"
}
views_case sim_branch_race PARLAB_SIM histogram.cu '^#ifdef PARLAB_SIM' "the atomic path only the simulator compiles"
views_case arch_branch_race __CUDA_ARCH__ histogram.cu '^#ifdef __CUDA_ARCH__' "the race only a GPU compiles"
views_case arch_guarded_helpers __CUDA_ARCH__ histogram.cu '^#if !defined\(__CUDA_ARCH__\)' \
  "a guard only nvcc can decide"
finish
