#!/usr/bin/env bash
# Sandbagging buys nothing (docs/scoring.md, "Useful work, not busy cores"): a serial
# lab01 pool with a child that only burns CPU, which sleeps as long again when given
# one worker (tests/fakes/parallelism, lab01_sandbag), earns no more parallel points
# than honest serial code (none), at `--sandbox off` and at the default level: the
# reference's 1-worker run, side by side, bounds its own. Honest parallel code at a
# third of the reference's speed (lab01_third_speed) is failed in each of 3 gradings,
# never inconclusive: even the most favourable reading of the noise earns it nothing
# ("Decided where the points cannot differ").
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
MAKE="$PARLAB_SOURCE_DIR/tests/fakes/parallelism/make_submission.sh"
PARALLEL_TESTS=("parallel speedup" "dynamic beats static on skewed sizes")
cores=$(nproc)
if [ "$cores" -lt 2 ]; then
  echo "skipped: the parallel tests need 2 cores (min_cores), this machine grants $cores"
  exit 0
fi
for kind in lab01_serial lab01_sandbag lab01_third_speed; do
  bash "$MAKE" "$kind" "$W/$kind"
done

# Failed, or inconclusive with its reason said (a busy machine, ratios too spread out, the
# reference's own gain too small here) and nothing counted: never points.
expect_no_points() {  # REPORT TEST WHAT
  local status
  expect_test "$1" "$2" points "0(\.0+)?" "$3: no points"
  status=$(result_field "$1" tests "$2" status)
  if [ "$status" = inconclusive ]; then
    expect_test_says "$1" "$2" "(^|; )inconclusive: .*nothing is counted against you" "$3: inconclusive, its reason said"
  else
    expect_test "$1" "$2" status failed "$3: failed"
  fi
}

for level in off auto; do
  for kind in lab01_serial lab01_sandbag; do
    run_grade "$kind-$level" lab01 "$W/$kind" --sandbox "$level" --work-dir "$W/work" \
      --json "$W/$kind-$level.json"
    expect_rc "$kind-$level" 1
  done
  for t in "${PARALLEL_TESTS[@]}"; do
    expect_no_points "$W/lab01_serial-$level.json" "$t" "serial control, '$t' ($level)"
    expect_no_points "$W/lab01_sandbag-$level.json" "$t" "sandbag, '$t' ($level)"
  done
  if [ "$(result_field "$W/lab01_sandbag-$level.json" tests "parallel speedup" status)" = failed ]; then
    expect_test_says "$W/lab01_sandbag-$level.json" "parallel speedup" \
      "with 1 worker the reference's task 'parallel_dynamic' took [0-9.]+x as long as your run" \
      "sandbag ($level): the reference's 1-worker run bounds its own, and it is told"
  fi
done

for i in 1 2 3; do
  run_grade "third-$i" lab01 "$W/lab01_third_speed" --work-dir "$W/work" --json "$W/third-$i.json"
  expect_rc "third-$i" 1
  for t in "${PARALLEL_TESTS[@]}"; do
    expect_test "$W/third-$i.json" "$t" status failed "third speed, grading $i: '$t' failed"
    expect_test "$W/third-$i.json" "$t" points "0(\.0+)?" "third speed, grading $i: '$t' no points"
  done
done
finish
