#!/usr/bin/env bash
# Builds no run can touch (docs/sandbox.md, "Builds no run can touch"): a lab01 fake
# whose run copies its own executable, marker flipped, over the cached build is refused
# at --sandbox off and at the default level, and the next grading of the same sources
# never runs a patched copy; the cached build is the grader's (root, writable by no
# one else); a build is not shared between sandbox levels; a cached executable changed
# behind the grader's back is rebuilt, not run. A simulator build is reused too: each
# grading stages the sources again without the build's rewritten copies and objects,
# which must not cost a rebuild.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
[ "$(id -u)" = 0 ] || { echo "skipped: needs a root grader (the uid pool)"; exit 77; }
mkdir -p "$W/poison"
cp "$PARLAB_SOURCE_DIR/tests/fakes/sandbox/poison_cache/file_stats.cpp" "$W/poison/"
grade_poison() {  # NAME LEVEL-ARGS...
  local name=$1; shift
  run_grade "$name" lab01 "$W/poison" --no-perf --wall-limit 20 --work-dir "$W/work" "$@" --json "$W/$name.json"
  expect_output "$W/$name.json" 'POISON: could not (write beside|replace) the cached build' "$name: the run may not replace the cached build"
  expect_no_output "$W/$name.json" 'POISON: the patched executable ran' "$name: no patched executable ran"
  expect_field "$W/$name.json" score '0(\.0*)?' "$name: no points"
}
grade_poison off_1 --sandbox off
grade_poison off_2 --sandbox off
expect_field "$W/off_2.json" build.log '\(cached: .*' "the second grading at off reuses the build"
grade_poison default_1
expect_field "$W/default_1.json" build.log '([^(].*)?' "a build made at off is not reused at the default level"

exe=$(find "$W/work/lab01" -path '*/build/host/bin/lab01_submission' | head -1)
[ -n "$exe" ] && [ "$(stat -c %u "$exe")" = 0 ] && [ $(( 0$(stat -c %a "$exe") & 022 )) = 0 ] &&
  [ "$(stat -c %u "$(dirname "$exe")")" = 0 ] && [ $(( 0$(stat -c %a "$(dirname "$exe")") & 022 )) = 0 ] &&
  pass "the cached build is root's and writable by no one else" ||
  fail "cached build $exe: $(stat -c '%U %a' "$exe" "$(dirname "$exe")" 2>&1 | tr '\n' ' ')"

# Changed behind the grader's back (as root could): rebuilt, never run as it is.
printf 'x' >>"$exe"
grade_poison default_2
expect_field "$W/default_2.json" build.log '([^(].*)?' "a cached executable whose digest changed is rebuilt"
# The simulator's build of unchanged sources is reused (lab04's skeleton: it builds, and
# its tests fail fast).
cp -r "$PARLAB_SOURCE_DIR/labs/lab04-atomics-reductions/skeleton" "$W/sim_skeleton"
for name in sim_1 sim_2; do
  run_grade "$name" lab04 "$W/sim_skeleton" --device sim --no-perf --work-dir "$W/work" --json "$W/$name.json"
done
expect_field "$W/sim_1.json" build.ok true "sim: the skeleton builds"
expect_field "$W/sim_2.json" build.log '\(cached: .*' "sim: the second grading reuses the simulator's build"
finish
