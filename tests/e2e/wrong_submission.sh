#!/usr/bin/env bash
# A submission with an off-by-one in the mean loses correctness points and its report
# names the first mismatch; hidden tests do not reveal values.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade wrong lab01 "$FAKES/wrong" --no-perf --work-dir "$W/work" --json "$W/r.json" --sandbox auto --gradescope "$W/gs.json"
expect_rc wrong 1
expect_in "$W/wrong.out" "file_mean\[[0-9]+\] \([^)]*\): expected [-0-9.e+]+, got [-0-9.e+]+" "first mismatch in file_mean"
expect_in "$W/wrong.out" "wrong result on hidden data" "hidden test says where, not what"
expect_in "$W/r.json" '"status": "not_graded"' "performance not graded with --no-perf"
expect_in "$W/gs.json" '"visibility": "after_published"' "hidden test hidden in gradescope"
# The seed recorded in the report reproduces the grading.
seed=$(grep -Eo '"fresh_seed": [0-9]+' "$W/r.json" | grep -Eo '[0-9]+$')
run_grade again lab01 "$FAKES/wrong" --no-perf --seed "$seed" --work-dir "$W/work" --json "$W/r2.json"
expect_json "$W/r2.json" fresh_seed "$seed,"
finish
