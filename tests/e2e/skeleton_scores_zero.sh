#!/usr/bin/env bash
# The skeleton compiles, runs, scores 0 and exits 1, with messages that say what differs.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade skel lab01 --work-dir "$W/work" --json "$W/r.json"
expect_rc skel 1
expect_score "$W/r.json" 0 100 "the skeleton scores 0 / 100"
expect_message "$W/r.json" "file_rows\[0\] \(log_000\.csv\): expected [0-9]+, got 0" "first mismatch named with file label"
expect_test_says "$W/r.json" "parallel speedup" "speed only counts for correct code" "performance gated on correctness"
expect_field "$W/r.json" fresh_seed "[0-9]+" "fresh seed stated"
finish
