#!/usr/bin/env bash
# Fast without the parallelism a test asks for (tests/fakes/parallelism/README.md): a
# serial lab01 pool, a lab01 pool of threads (the lab asks for processes) and a
# single-threaded lab02 get none of the parallel tests' points, told what the grader
# saw ("your run kept 1.00 of 2 cores busy ... 1 process, 1 thread"). On a quiet machine
# the tests fail ("not parallel"); a machine the grader saw busy, or ratios too spread out
# to judge, make them inconclusive (never points): both are accepted, each with its own
# message. A serial pool with a
# forked child that only burns CPU spreads CPU time, not work: its own 1-worker run is
# as fast, and it earns nothing either.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
FAKES="$PARLAB_SOURCE_DIR/tests/fakes/parallelism"
cores=$(nproc)
if [ "$cores" -lt 2 ]; then
  echo "skipped: the parallel tests need 2 cores (min_cores), this machine grants $cores"
  exit 0
fi

# Sum of the points of the named tests, and their statuses.
points_of() {  # JSON TEST...
  python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tests = {t["name"]: t for t in r["tests"]}
print(sum(tests[n]["points"] for n in sys.argv[2:]),
      " ".join(tests[n]["status"] for n in sys.argv[2:]))
PY
}

# Each parallel test failed, or was inconclusive with its reason said (a busy machine,
# ratios too spread out: both seen in CI) and nothing counted against the student.
check_statuses() {  # RUN-NAME JSON TEST...
  local run=$1 json=$2 ok=1 name status message seen=""; shift 2
  for name in "$@"; do
    status=$(result_field "$json" tests "$name" status 2>&1)
    message=$(result_field "$json" tests "$name" message 2>&1)
    seen="$seen $status"
    case "$status" in
      failed) ;;
      inconclusive) [[ "$message" == *"inconclusive: "*"nothing is counted against you"* ]] || ok=0 ;;
      *) ok=0 ;;
    esac
    [ "$ok" = 1 ] || { echo "  | $name: $status: $message" >&2; }
  done
  [ "$ok" = 1 ] && pass "$run: each parallel test failed or inconclusive with its reason ($seen )" ||
    fail "$run: statuses$seen"
}

for kind in lab01_serial lab01_threads; do
  bash "$FAKES/make_submission.sh" "$kind" "$W/$kind"
  run_grade "$kind" lab01 "$W/$kind" --work-dir "$W/work" --json "$W/$kind.json"
  expect_rc "$kind" 1
  read -r points statuses < <(points_of "$W/$kind.json" "parallel speedup" \
                                         "dynamic beats static on skewed sizes")
  [[ "$points" =~ ^0(\.0+)?$ ]] && pass "$kind: no parallel points" || fail "$kind: earned $points parallel points"
  check_statuses "$kind" "$W/$kind.json" "parallel speedup" "dynamic beats static on skewed sizes"
  expect_test_says "$W/$kind.json" "parallel speedup" "your run kept [0-9.]+ of $cores cores busy" "$kind: observed cores said"
  if [[ "$statuses" == *failed* ]]; then
    expect_message "$W/$kind.json" "not parallel: this test needs the work spread over at least 1.5 processes" \
      "$kind: the rule said"
  fi
  expect_field "$W/$kind.json" "tests.parallel speedup.measurement.observed.required_cores" "1.5" \
    "$kind: the speed test requires 1.5 cores"
done
expect_field "$W/lab01_serial.json" "tests.parallel speedup.measurement.observed.candidate_processes" 1 \
  "serial: one process seen"
expect_field "$W/lab01_serial.json" "tests.parallel speedup.measurement.observed.candidate_threads" 1 \
  "serial: one thread seen"

bash "$FAKES/make_submission.sh" lab01_burner "$W/lab01_burner"
run_grade lab01_burner lab01 "$W/lab01_burner" --work-dir "$W/work" --json "$W/lab01_burner.json"
expect_rc lab01_burner 1
read -r points statuses < <(points_of "$W/lab01_burner.json" "parallel speedup" \
                                       "dynamic beats static on skewed sizes")
[[ "$points" =~ ^0(\.0+)?$ ]] && pass "burner: no parallel points" || fail "burner: earned $points parallel points"
check_statuses lab01_burner "$W/lab01_burner.json" "parallel speedup" "dynamic beats static on skewed sizes"
read -r first_status _ <<<"$statuses"
if [ "$first_status" = failed ]; then
  # Its serial code is the reference's: either 1-worker run may be the faster one. Where
  # the burner got little CPU, its work was not even spread: that rule speaks first.
  expect_test_says "$W/lab01_burner.json" "parallel speedup" "not parallel: (with 1 worker (your own task 'parallel_dynamic' took [0-9.]+x as long as with|the reference's task 'parallel_dynamic' took [0-9.]+x as long as your run with) $cores|this test needs the work spread over at least)" \
    "burner: told a 1-worker run is as fast, or that one process did the work"
fi
expect_test_says "$W/lab01_threads.json" "a worker that dies is reported" "read the files in the driver's own process.*there was none" \
  "threads: no worker process to kill, said"
(( $(printf '%.0f' "$(result_field "$W/lab01_threads.json" tests "a worker that dies is reported" seconds)") < 10 )) &&
  pass "threads: found at once, not at the time limit" || fail "threads: the killed-worker test waited for its time limit"
# Said where a test was decided; an inconclusive one says only why it could not be.
[[ "$(result_field "$W/lab01_threads.json" '*message')" == *"inconclusive: "* ]] ||
  expect_message "$W/lab01_threads.json" "threads do not count: this lab asks for worker processes" \
  "threads: told the lab asks for processes"

bash "$FAKES/make_submission.sh" lab02_single_thread "$W/lab02_single"
run_grade lab02_single lab02 "$W/lab02_single" --device sim --work-dir "$W/work" --json "$W/lab02.json"
read -r points statuses < <(points_of "$W/lab02.json" "parallel speedup" "grid search speedup")
[[ "$points" =~ ^0(\.0+)?$ ]] && pass "lab02 single thread: no parallel points" || fail "lab02: earned $points"
check_statuses lab02_single "$W/lab02.json" "parallel speedup" "grid search speedup"
observed="tests.parallel speedup.measurement.observed"
expect_field "$W/lab02.json" "$observed.work_spread" "1(\.0[0-9]*)?" "lab02: its work spread over one thread"
expect_field "$W/lab02.json" "$observed.candidate_processes" 1 "lab02: one process seen"
expect_field "$W/lab02.json" "$observed.candidate_threads" 1 "lab02: one thread seen"
for gpu_test in "GPU vs the GPU reference" "GPU vs all CPU cores"; do
  expect_test "$W/lab02.json" "$gpu_test" status not_graded "lab02: '$gpu_test' is not graded in sim"
done
finish
