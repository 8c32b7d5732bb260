#!/usr/bin/env bash
# Fast without the parallelism a test asks for (tests/fakes/parallelism/README.md): a
# serial lab01 pool, a lab01 pool of threads (the lab asks for processes) and a
# single-threaded lab02 get none of the parallel tests' points, told what the grader
# saw ("your run kept 1.00 of 2 cores busy ... 1 process, 1 thread"), whatever the load.
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

for kind in lab01_serial lab01_threads; do
  bash "$FAKES/make_submission.sh" "$kind" "$W/$kind"
  run_grade "$kind" lab01 "$W/$kind" --work-dir "$W/work" --json "$W/$kind.json"
  expect_rc "$kind" 1
  read -r points statuses < <(points_of "$W/$kind.json" "parallel speedup" \
                                         "dynamic beats static on skewed sizes")
  [[ "$points" =~ ^0(\.0+)?$ ]] && pass "$kind: no parallel points" || fail "$kind: earned $points parallel points"
  [ "$statuses" = "failed failed" ] && pass "$kind: both failed" || fail "$kind: statuses $statuses"
  expect_in "$W/$kind.out" "your run kept [0-9.]+ of $cores cores busy" "$kind: observed cores said"
  expect_in "$W/$kind.out" "not parallel: this test needs the work spread over at least 1.5 processes" \
    "$kind: the rule said"
  expect_json "$W/$kind.json" required_cores "1.5"
done
expect_in "$W/lab01_serial.out" "\(1 process, 1 thread\)" "serial: one process, one thread seen"
expect_in "$W/lab01_threads.out" "threads do not count: this lab asks for worker processes" \
  "threads: told the lab asks for processes"

bash "$FAKES/make_submission.sh" lab02_single_thread "$W/lab02_single"
run_grade lab02_single lab02 "$W/lab02_single" --device sim --work-dir "$W/work" --json "$W/lab02.json"
read -r points statuses < <(points_of "$W/lab02.json" "parallel speedup" "grid search speedup")
[[ "$points" =~ ^0(\.0+)?$ ]] && pass "lab02 single thread: no parallel points" || fail "lab02: earned $points"
[ "$statuses" = "failed failed" ] && pass "lab02: both failed" || fail "lab02: statuses $statuses"
expect_in "$W/lab02_single.out" "spread over 1.0[0-9] threads \(1 process, 1 thread\)" \
  "lab02: one thread seen"
expect_in "$W/lab02_single.out" "(GPU vs the GPU reference +not.graded|tests: GPU vs .* +not graded )" "its GPU tests are not graded in sim (one folded row)"
finish
