#!/usr/bin/env bash
# A compile error is reported with the student's own file:line, every test fails.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade ce lab01 "$FAKES/compile_error" --work-dir "$W/work" --json "$W/r.json"
expect_rc ce 1
expect_in "$W/ce.out" "$FAKES/compile_error/file_stats.cpp:[0-9]+:[0-9]+: error" "error points at the student's file"
expect_json "$W/r.json" score "0(\.0+)?,"
expect_in "$W/ce.out" "did not compile" "tests say why they did not run"
finish
