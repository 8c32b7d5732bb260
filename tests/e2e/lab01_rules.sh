#!/usr/bin/env bash
# Every rule of the lab01 handout is tested: one submission per classic mistake (made
# from tests/fakes/lab01/rules/file_stats_base.cpp with one FAKE_* switch) fails the
# test that checks the rule, with the hint lab.toml declares for that mismatch. The
# deadlocks are stopped early (every process blocked, no CPU time) with a diagnosis.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
BASE="$PARLAB_SOURCE_DIR/tests/fakes/lab01/rules/file_stats_base.cpp"
make_fake() {  # NAME SWITCH
  mkdir -p "$W/fakes/$1"
  { echo "#define $2 1"; cat "$BASE"; } >"$W/fakes/$1/file_stats.cpp"
}
grade_fake() {  # NAME SWITCH [grade options...]
  local name=$1 switch=$2; shift 2
  make_fake "$name" "$switch"
  run_grade "$name" lab01 "$W/fakes/$name" --no-perf --work-dir "$W/work" --json "$W/$name.json" "$@"
}
# expect_verdict NAME TEST STATUS MESSAGE-REGEX WHAT: the fake NAME's result gives TEST
# the status, with a message that matches.
expect_verdict() {
  expect_test "$W/$1.json" "$2" status "$3" "$5"
  expect_test_says "$W/$1.json" "$2" "$4" "$5 (the message)"
}

# The base itself passes every correctness test: the switches alone make the failures.
make_fake correct FAKE_NONE
run_grade correct lab01 "$W/fakes/correct" --no-perf --work-dir "$W/work" --json "$W/correct.json"
expect_rc correct 0
expect_field "$W/correct.json" score 60 "the base scores every correctness point"

grade_fake blank FAKE_BLANK_IS_MALFORMED
expect_verdict blank "blank lines, CRLF line ends and padded fields" failed \
  "file_malformed.*Hint: too many malformed rows: blank lines are skipped" "blank lines counted: hinted"
expect_verdict blank "empty files and malformed rows" passed "" "no blank line in the other datasets"

grade_fake crlf FAKE_KEEP_CR
expect_verdict crlf "blank lines, CRLF line ends and padded fields" failed \
  "Hint: .*trailing '\\\\r'" "a kept '\\r' is hinted"

grade_fake notrim FAKE_NO_TRIM
expect_verdict notrim "blank lines, CRLF line ends and padded fields" failed \
  "Hint: .*spaces" "untrimmed fields are hinted"

grade_fake zombies FAKE_NO_WAITPID
expect_verdict zombies "workers reaped (no zombies)" failed \
  "unreaped_children.*Hint: child processes were still there.*waitpid" "zombies are a failed test with the hint"

grade_fake ignores_death FAKE_IGNORE_DEATH
expect_verdict ignores_death "a worker that dies is reported" failed \
  "worker_death_reported.*Hint: process_parallel returned normally.*SIGKILL" "an ignored dead worker is hinted"
expect_verdict ignores_death "dynamic schedule" passed "" "it is otherwise correct"

# Deadlocks: stopped long before the 30 s limit, with what every process was doing.
# Each deadlocked test waits a few quiet seconds to be sure: the test checked is graded
# alone (--only), not every test the fake deadlocks in.
start=$(date +%s)
grade_fake wait_first FAKE_WAIT_BEFORE_READ --only "dynamic schedule"
took=$(( $(date +%s) - start ))
expect_verdict wait_first "dynamic schedule" failed \
  "deadlock: stopped after .*all [0-9]+ processes blocked: the program in wait4.*writing to a full pipe; read the pipes before waiting" \
  "wait-before-read deadlock diagnosed"
[ "$took" -lt 60 ] && pass "deadlocks stopped early (${took} s for the grading)" || fail "grading took ${took} s"

grade_fake open_ends FAKE_KEEP_WRITE_ENDS --only "single file"
expect_verdict open_ends "single file" failed \
  "deadlock: .*the program reading from a pipe that nobody writes.*close the ends you do not use" \
  "unclosed write ends diagnosed"
finish
