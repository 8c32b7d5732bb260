#!/usr/bin/env bash
# tests/gpu/run_gpu_suite.sh, the parts that need no GPU: its argument checks and, with
# --dry-run, the gradings it would run (every GPU lab's reference --runs times and its
# skeleton once, all with --device gpu --sandbox require), from this build's paths, in
# the order a short GPU lease needs (each reference once first); and
# tests/gpu/make_gpu_fakes.sh, which must make every submission of tests/gpu/fakes.tsv
# (a patch that no longer applies would otherwise be found only on a GPU host).
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
run_suite bad_budget --build "$build" --budget 5m
expect_rc bad_budget 2
# text: the suite script's argument error
expect_in "$W/bad_budget.err" "--budget must be whole seconds" "a budget with a unit refused"
run_suite bad_sandbox --build "$build" --sandbox none
expect_rc bad_sandbox 2
# text: the suite script's argument error
expect_in "$W/bad_sandbox.err" "--sandbox must be require, auto or off" "an unknown sandbox level refused"
run_suite bad_fakes --build "$build" --fakes "$W"
expect_rc bad_fakes 2
# text: the suite script's argument error
expect_in "$W/bad_fakes.err" "no list.tsv there" "a fakes folder without its list refused"

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

# The GPU fakes, made here as a lease would carry them; every line of fakes.tsv a folder.
bash "$PARLAB_SOURCE_DIR/tests/gpu/make_gpu_fakes.sh" "$W/fakes" >"$W/fakes.out" 2>&1
echo $? >"$W/fakes.rc"
expect_rc fakes 0
want=$(grep -v '^#' "$PARLAB_SOURCE_DIR/tests/gpu/fakes.tsv" | grep -c .)
made=$(find "$W/fakes" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$made" = "$want" ] && [ "$want" -gt 0 ] && pass "make_gpu_fakes.sh made all $want fakes" ||
  fail "make_gpu_fakes.sh made $made of $want fakes ($(cat "$W/fakes.out"))"
run_suite dry_fakes --build "$build" --out "$W/suite3" --dry-run --runs 2 --fakes "$W/fakes" \
  --sanitizer /bin/true --sandbox auto
expect_rc dry_fakes 0
# order: line numbers of the plan (--dry-run's output)
line_of() { grep -n -- "$1" "$W/dry_fakes.out" | head -1 | cut -d: -f1; }
last_of() { grep -n -- "$1" "$W/dry_fakes.out" | tail -1 | cut -d: -f1; }
first_skeleton=$(line_of "/skeleton ") last_ref1=$(last_of "reference-1.json")
first_fake=$(line_of "fake-") first_ref2=$(line_of "reference-2.json") last_pair=$(last_of "noperf-sanitizer")
[ -n "$first_skeleton" ] && [ "$last_ref1" -lt "$first_skeleton" ] && [ "$first_skeleton" -lt "$first_fake" ] &&
  [ "$first_fake" -lt "$last_pair" ] && [ "$last_pair" -lt "$first_ref2" ] &&
  pass "plan order: each reference once, skeletons, fakes, sanitizer pairs, more reference runs" ||
  fail "plan order wrong: ref1 ..$last_ref1, skeleton $first_skeleton, fake $first_fake, pairs ..$last_pair, ref2 $first_ref2"
n=$(grep -c -- "--device gpu --sandbox auto --json $W/suite3/fake-" "$W/dry_fakes.out")
[ "$n" = "$want" ] && pass "every fake graded once, with the sandbox asked for" || fail "$n fake gradings planned, expected $want"
# text: the --dry-run plan
expect_in "$W/dry_fakes.out" "grade lab05 $W/fakes/lab05__lab05_fp16 --no-perf " "a no-perf line of fakes.tsv graded --no-perf"
# text: the --dry-run plan
expect_in "$W/dry_fakes.out" "--no-perf --toolchain $W/suite3/toolchain-sanitizer.json" "the sanitizer run uses its own toolchain"
# text: the --dry-run plan
expect_in "$W/dry_fakes.out" "grade lab06 $W/fakes/lab06__lab06_pipeline_one_stream --only pipeline overlaps copies with kernels " \
  "an only:TEST line of fakes.tsv graded --only that test"
# A second pass over the fakes alone, every grading with one toolchain named.
run_suite fakes_only --build "$build" --out "$W/suite4" --dry-run --runs 3 --fakes "$W/fakes" \
  --no-references --toolchain "$build/toolchain.json" --sanitizer /bin/true
expect_rc fakes_only 0
n=$(grep -c -- "--reference\|/skeleton " "$W/fakes_only.out")
[ "$n" = 0 ] && pass "--no-references: no reference, skeleton or sanitizer pair planned" ||
  fail "--no-references still planned $n reference or skeleton gradings"
n=$(grep -c -- "--toolchain $build/toolchain.json --device gpu" "$W/fakes_only.out")
[ "$n" = "$want" ] && pass "--toolchain passed to every grading" || fail "--toolchain on $n of $want gradings"
run_suite bad_toolchain --build "$build" --toolchain "$W/none.json"
expect_rc bad_toolchain 2
# text: the suite script's argument error
expect_in "$W/bad_toolchain.err" "no such file" "a missing --toolchain refused"
# A fakes.tsv line whose only:TEST names no test of its lab is refused when the fakes are made.
mkdir -p "$W/badlist/tests/gpu" "$W/badlist/labs"
cp "$PARLAB_SOURCE_DIR/tests/gpu/make_gpu_fakes.sh" "$W/badlist/tests/gpu/"
ln -s "$PARLAB_SOURCE_DIR/tests/fakes" "$W/badlist/tests/fakes"
ln -s "$PARLAB_SOURCE_DIR/labs/lab06-streams" "$W/badlist/labs/lab06-streams"
printf 'lab06\tlab06/pipeline_one_stream\tonly:pipeline overlap\tx\n' >"$W/badlist/tests/gpu/fakes.tsv"
bash "$W/badlist/tests/gpu/make_gpu_fakes.sh" "$W/badfakes" >"$W/badonly.out" 2>"$W/badonly.err"
echo $? >"$W/badonly.rc"
expect_rc badonly 2
# text: make_gpu_fakes.sh's error
expect_in "$W/badonly.err" "'pipeline overlap' .lab06/pipeline_one_stream. is no test of lab06's lab.toml" \
  "an only: name that is no test refused"
[ "$failures" = 0 ] || exit 1
