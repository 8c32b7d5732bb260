#!/usr/bin/env bash
# The sandbox level is explicit and never silently weaker; a
# submission cannot read expected outputs or another grading's files at any level;
# one grading holding its process limit does not hurt a concurrent one; a memfd hog
# and a disk filler end with their own clear reasons. Cases that need root (uid pool,
# cgroups, quota) are skipped with a note elsewhere.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
ROOT=0; [ "$(id -u)" = 0 ] && ROOT=1

# --- item 4: the level -------------------------------------------------------------
PARLAB_BWRAP=/nonexistent/bwrap run_grade require_missing lab01 "$FAKES/wrong" --no-perf \
  --work-dir "$W/work" --sandbox require
expect_rc require_missing 3
# text: refused before any report exists
expect_in "$W/require_missing.err" "sandbox require" "require names the level"
expect_in "$W/require_missing.err" "systempaths=unconfined" "require gives the Docker fix" # text: pre-report error
expect_in "$W/require_missing.err" "Apptainer" "require gives the Apptainer fix" # text: pre-report error

PARLAB_BWRAP=/nonexistent/bwrap run_grade gradescope_default lab01 "$FAKES/wrong" --no-perf \
  --work-dir "$W/work" --gradescope "$W/gs.json"
expect_rc gradescope_default 3

mkdir -p "$W/class/s1" && cp "$FAKES/wrong/file_stats.cpp" "$W/class/s1/"
PARLAB_BWRAP=/nonexistent/bwrap run_grade batch_default batch lab01 "$W/class" --out "$W/batch-out" \
  --no-perf --work-dir "$W/work"
expect_rc batch_default 3
# text: batch refuses before any report exists
expect_in "$W/batch_default.err" "systempaths=unconfined" "batch refuses up front, with the fix"

run_grade bad_level lab01 "$FAKES/wrong" --sandbox sometimes
expect_rc bad_level 2

PARLAB_BWRAP=/nonexistent/bwrap run_grade auto_fallback lab01 "$FAKES/wrong" --no-perf \
  --wall-limit 5 --work-dir "$W/work" --sandbox auto --json "$W/fallback.json"
expect_rc auto_fallback 1
expect_field "$W/fallback.json" host.sandbox "rlimits only" "the fallback sandbox is recorded"
expect_field "$W/fallback.json" host.sandbox_level auto "the level asked for is recorded"
expect_message "$W/fallback.json" "bubblewrap unavailable \\(.*nonexistent" "the fallback is noted with its reason"
# text: the weaker sandbox must show where the student looks, not only in the report
expect_in "$W/auto_fallback.out" "bubblewrap unavailable" "the fallback shows on the console"

# --- item 3 and 2: nothing of the reference or of another grading is readable ---------
# A finished grading kept for debugging, then a peeking one, at every level.
run_grade kept lab01 "$FAKES/wrong" --no-perf --wall-limit 5 --work-dir "$W/work" --keep-runs \
  --sandbox auto
expect_rc kept 1
for level in auto off; do
  run_grade "peek_$level" lab01 "$FAKES/peek" --no-perf --wall-limit 5 --work-dir "$W/work" \
    --sandbox "$level" --json "$W/peek_$level.json"
  expect_rc "peek_$level" 1
  expect_field "$W/peek_$level.json" host.sandbox_level "$level" "peek ($level): the level is recorded"
  expect_output "$W/peek_$level.json" "PEEK: found nothing readable" "peek ($level) finds nothing"
  expect_no_output "$W/peek_$level.json" "PEEK: read" "peek ($level) read no file"
done
expect_field "$W/peek_off.json" host.sandbox "rlimits only" "--sandbox off: rlimits only"
[ -z "$(ls -A "$W"/work/lab01/*/reference-runs 2>/dev/null)" ] \
  && pass "no reference outputs left on disk" || fail "reference outputs left on disk"

if [ "$ROOT" = 1 ]; then
  expect_field "$W/peek_auto.json" host.isolation 'uid pool \(uid [0-9]+, reference uid [0-9]+\).*' \
    "the report names the uid pool"
  # --- item 2: two gradings at once, one holding its process limit -----------------
  mkdir -p "$W/victim" && cp -r "$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing/." "$W/victim/"
  run_grade hog lab01 "$FAKES/hold_procs" --no-perf --wall-limit 8 --work-dir "$W/work" --json "$W/hog.json" &
  hog=$!
  sleep 1
  run_grade victim lab01 "$W/victim" --no-perf --work-dir "$W/work" --json "$W/victim.json"
  wait "$hog"
  expect_rc victim 0
  expect_rc hog 1
  expect_message "$W/hog.json" "held [0-9]+ processes" "the hog held its process limit"

  # --- memory of the whole tree, disk quota ------------------------------------------
  if [[ "$(result_field "$W/peek_auto.json" host isolation)" == *"cgroup v"* ]]; then
    run_grade memfd lab01 "$FAKES/memfd" --no-perf --wall-limit 20 --work-dir "$W/work" \
      --json "$W/memfd.json"
    expect_rc memfd 1
    expect_some_test "$W/memfd.json" outcome memory_limit "memfd hog: a run ended at the memory limit"
    expect_message "$W/memfd.json" "together used more than 2 GiB" "memfd hog: memory limit of the tree"
  else
    echo "note: no cgroups here, memfd hog not tested"
  fi
  PARLAB_RUN_DISK_QUOTA_MB=64 run_grade filler lab01 "$FAKES/fill_disk" --no-perf --wall-limit 10 \
    --work-dir "$W/work" --json "$W/filler.json"
  expect_rc filler 1
  expect_some_test "$W/filler.json" outcome output_limit "disk filler: a run ended at the output limit"
  expect_message "$W/filler.json" "disk quota exceeded" "disk filler: disk quota exceeded"
  left=$(find "$W/work/lab01" -name 'filler_*' 2>/dev/null | wc -l)
  [ "$left" = 0 ] && pass "run folders removed after the grading" || fail "$left filler files left"
else
  echo "note: not root: uid pool, concurrent-grading, cgroup and quota cases skipped"
fi
finish
