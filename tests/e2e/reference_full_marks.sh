#!/usr/bin/env bash
# `grade lab01 --reference` must get full marks, performance included, and write
# every report format.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
grade_reference() {
  run_grade ref lab01 --reference --work-dir "$W/work" --json "$W/r.json" \
    --sandbox auto --gradescope "$W/results.json" --junit "$W/junit.xml" --markdown "$W/r.md"
}
grade_reference
# Speedup needs idle cores: a process elsewhere on the machine can cost the reference
# its parallel speedup for a whole grading. One more grading is allowed, and said so;
# a lab whose thresholds the reference cannot reach fails twice.
if [ "$(rc_of ref)" != 0 ]; then
  echo "note: first reference grading got $(grep -Eo 'Total: [0-9.]+ / 100' "$W/ref.out"); grading again"
  grade_reference
fi
expect_rc ref 0
expect_in "$W/ref.out" "Total: 100(\.0+)? / 100" "console total is 100 / 100"
expect_json "$W/r.json" score "100(\.0+)?,"
expect_json "$W/r.json" reference_mode true
expect_in "$W/results.json" '"score": 100' "gradescope score 100"
expect_in "$W/junit.xml" 'failures="0"' "junit has no failures"
expect_in "$W/r.md" "parallel speedup" "markdown names the performance test"
# The result model is canonical: re-rendering the JSON gives the same console report.
"$GRADE" report "$W/r.json" --format console >"$W/rerender.out" 2>&1 || fail "grade report failed"
expect_in "$W/rerender.out" "Total: 100(\.0+)? / 100" "grade report re-renders the result"
finish
