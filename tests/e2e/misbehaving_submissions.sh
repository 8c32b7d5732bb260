#!/usr/bin/env bash
# Crashing, looping, allocating and flooding submissions are each reported with their
# reason; the grader finishes normally (exit 1) and writes its reports.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
for kind in crash loop alloc flood; do
  run_grade "$kind" lab01 "$FAKES/$kind" --no-perf --wall-limit 3 --work-dir "$W/work" \
    --json "$W/$kind.json" --junit "$W/$kind.xml"
  expect_rc "$kind" 1
  [ -s "$W/$kind.json" ] && pass "$kind: json written" || fail "$kind: no json report"
  [ -s "$W/$kind.xml" ] && pass "$kind: junit written" || fail "$kind: no junit report"
done
expect_some_test "$W/crash.json" outcome crashed "crash: a test's run ended crashed"
expect_message "$W/crash.json" "SIGSEGV" "crash names the signal"
expect_some_test "$W/loop.json" outcome timeout "loop: a test's run ended timeout"
expect_message "$W/loop.json" "time limit" "timeout names the limit"
expect_some_test "$W/alloc.json" outcome memory_limit "alloc: a test's run ended memory_limit"
expect_message "$W/alloc.json" "(out of memory|memory limit)" "memory overrun reported as such"
expect_some_test "$W/flood.json" outcome output_limit "flood: a test's run ended output_limit"
expect_message "$W/flood.json" "output limit" "output flood reported as such"
finish
