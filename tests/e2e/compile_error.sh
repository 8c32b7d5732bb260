#!/usr/bin/env bash
# A compile error is reported with the student's own file:line, every test fails.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade ce lab01 "$FAKES/compile_error" --work-dir "$W/work" --json "$W/r.json"
expect_rc ce 1
expect_in "$W/ce.out" "$FAKES/compile_error/file_stats.cpp:[0-9]+:[0-9]+: error" "error points at the student's file"
expect_field "$W/r.json" score 0 "a build failure scores 0"
expect_field "$W/r.json" build.ok false "the result records the failed build"
expect_no_test "$W/r.json" "passed|partial" "no test passes without a build"
expect_in "$W/ce.out" "not run: the build failed" "tests say why they did not run, once"
[ "$(grep -c 'the build failed' "$W/ce.out")" = 1 ] && pass "the build failure is said once" || fail "the build failure repeated per test"
expect_in "$W/ce.out" "^Next:  fix the build error in file_stats.cpp:[0-9]+" "the verdict says what to fix"
finish
