#!/usr/bin/env bash
# A submission with an off-by-one in the mean loses correctness points and its report
# names the first mismatch; hidden tests do not reveal values.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade wrong lab01 "$FAKES/wrong" --no-perf --work-dir "$W/work" --json "$W/r.json" --sandbox auto --gradescope "$W/gs.json"
expect_rc wrong 1
expect_message "$W/r.json" "file_mean\[[0-9]+\] \([^)]*\): expected [-0-9.e+]+, got [-0-9.e+]+" "first mismatch in file_mean"
expect_test_says "$W/r.json" "hidden fresh data" "wrong result on hidden data" "hidden test says where, not what"
expect_test "$W/r.json" "hidden fresh data" visibility hidden "the fresh-data test is hidden"
expect_test "$W/r.json" "parallel speedup" status not_graded "performance not graded with --no-perf"
hidden=$(python3 -c 'import json, sys
print(" ".join(t.get("visibility", "") for t in json.load(open(sys.argv[1]))["tests"]))' "$W/gs.json")
[[ " $hidden " == *" after_published "* ]] && pass "hidden test hidden in gradescope" ||
  fail "hidden test hidden in gradescope: visibilities are '$hidden'"
# The seed recorded in the report reproduces the grading.
seed=$(result_field "$W/r.json" fresh_seed)
run_grade again lab01 "$FAKES/wrong" --no-perf --seed "$seed" --work-dir "$W/work" --json "$W/r2.json"
expect_field "$W/r2.json" fresh_seed "$seed" "--seed repeats the fresh data's seed"
finish
