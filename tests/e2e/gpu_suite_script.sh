#!/usr/bin/env bash
# tests/gpu/run_gpu_suite.sh, the parts that need no GPU: its argument checks and, with
# --dry-run, the gradings it would run (every GPU lab's reference --runs times and its
# skeleton once, all with --device gpu --sandbox require), from this build's paths.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
suite="$PARLAB_SOURCE_DIR/tests/gpu/run_gpu_suite.sh"
build=$(dirname "$GRADE")
run_suite() {  # NAME ARGS...
  local name=$1; shift
  bash "$suite" "$@" >"$W/$name.out" 2>"$W/$name.err"
  echo $? >"$W/$name.rc"
}
run_suite no_build
expect_rc no_build 2
# text: the suite script's argument errors (it grades nothing, writes no report)
expect_in "$W/no_build.err" "--build is required" "no build folder: said so"
run_suite bad_build --build "$W/nowhere"
expect_rc bad_build 2
# text: the suite script's argument error
expect_in "$W/bad_build.err" "no toolchain.json there" "a folder that is no build: said so"
run_suite bad_runs --build "$build" --runs 0
expect_rc bad_runs 2
# text: the suite script's argument error
expect_in "$W/bad_runs.err" "--runs must be a positive integer" "zero runs refused"
run_suite cpu_lab --build "$build" --labs lab01
expect_rc cpu_lab 2
# text: the suite script's argument error
expect_in "$W/cpu_lab.err" "'lab01' is not a GPU lab" "a CPU lab refused"
run_suite unknown --build "$build" --frobnicate
expect_rc unknown 2

run_suite dry --build "$build" --out "$W/suite" --dry-run
expect_rc dry 0
for lab in lab02 lab03 lab04 lab05 lab06; do
  n=$(grep -c -- "grade $lab --reference --device gpu --sandbox require --json $W/suite/$lab-reference-" "$W/dry.out")
  [ "$n" = 5 ] && pass "$lab reference graded 5 times" || fail "$lab reference planned $n times, expected 5"
  # text: --dry-run's plan (the commands it would run) exists only as its output
  expect_in "$W/dry.out" "grade $lab /.*/skeleton --device gpu --sandbox require" "$lab skeleton graded"
done
# text: the --dry-run plan
expect_not_in "$W/dry.out" "grade lab01" "no CPU lab in the GPU suite"
# text: the --dry-run plan
expect_in "$W/dry.out" "^\+ $build/grade " "grade taken from the given build"
run_suite dry_two --build "$build" --out "$W/suite2" --dry-run --runs 2 --labs lab03
n=$(grep -c -- "--reference" "$W/dry_two.out")
[ "$n" = 2 ] && pass "--runs 2 --labs lab03: 2 gradings" || fail "--runs 2 --labs lab03 planned $n"
[ "$failures" = 0 ] || exit 1
