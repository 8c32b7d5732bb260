#!/usr/bin/env bash
# Submissions that lie about their speed (tests/fakes/forged/README.md) earn no
# performance points and are told why (the honest reference keeps full marks:
# reference_full_marks.sh).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
FORGED="$PARLAB_SOURCE_DIR/tests/fakes/forged"

for lie in clock_interposer constructor_work timings_writer; do
  sub="$W/sub-$lie"
  bash "$FORGED/make_submission.sh" "$lie" "$sub"
  run_grade "$lie" lab01 "$sub" --work-dir "$W/work" --json "$W/$lie.json"
  # Correct but no faster than it really is: performance points lost, so exit 1.
  expect_rc "$lie" 1
  expect_test "$W/$lie.json" "parallel speedup" kind performance "$lie: the speed test was graded"
  # Every output test passed (the lie is only about speed); no performance point.
  read -r correct_failed perf_points < <(python3 - "$W/$lie.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
# The process-rule tests (a dying worker, reaping) fail for these serial fakes, as they
# should; every output they compute is right.
rules = {"a worker that dies is reported", "workers reaped (no zombies)"}
print(sum(1 for t in r["tests"] if t["kind"] == "correctness" and t["name"] not in rules
          and t["status"] != "passed"),
      sum(t["points"] for t in r["tests"] if t["kind"] == "performance"))
PY
)
  [ "$correct_failed" = 0 ] && pass "$lie: correct" || fail "$lie: $correct_failed correctness tests failed"
  expect_field "$W/$lie.json" "tests.parallel speedup.measurement.observed.timing_trusted" false \
    "$lie: the speed test's timing is not trusted"
  expect_message "$W/$lie.json" "timing not trusted" "$lie: the report says the timing is not trusted"
  case "$perf_points" in
    0|0.0) pass "$lie: no performance points" ;;
    *) fail "$lie: earned $perf_points performance points" ;;
  esac
done
finish
