#!/usr/bin/env bash
# Two batches and a single grading at once on a pool of two uids, just enough for one
# grading (its own uid and its reference's): each grading takes both uids at once and
# waits in line, so none holds one uid while waiting for the other (before, two batches
# each took one and both gave up, exit 3, nothing graded). Every row of both batches is
# graded, and the single grading passes. Root only (the pool is used when the grader is root).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
export PARLAB_LOCK_DIR="$W/locks"
if [ "$(id -u)" != 0 ]; then
  echo "skipped: the uid pool is used only when the grader is root"
  exit 77
fi
# A deadlock fails in a minute, not in the default ten.
export PARLAB_UID_POOL=61320-61321 PARLAB_UID_POOL_DIR="$W/uids" PARLAB_UID_WAIT_S=60
for b in a b; do
  mkdir -p "$W/class_$b"
  cp -r "$SKELETON" "$W/class_$b/skel1"
done
run_grade batch_a batch lab01 "$W/class_a" --out "$W/out_a" --work-dir "$W/work_a" "${BATCH_OPTS[@]}" --jobs 2 &
run_grade batch_b batch lab01 "$W/class_b" --out "$W/out_b" --work-dir "$W/work_b" "${BATCH_OPTS[@]}" --jobs 2 &
run_grade single lab01 "$SKELETON" --no-perf --work-dir "$W/work_single" --json "$W/single.json" &
wait
expect_rc batch_a 0
expect_rc batch_b 0
# The skeleton fails its tests (exit 1); no uid in time would be a tool error (exit 3).
expect_rc single 1
expect_field "$W/single.json" graded_max_score "60(\.0)?" "the single grading was graded"
for b in a b; do
  expect_field "$W/out_$b/summary.json" last_run.jobs 1 "batch $b: --jobs lowered to what the pool holds"
  python3 - "$W/out_$b/students" <<'PY' && pass "batch $b: every row graded on its first attempt" || fail "batch $b: rows not all graded"
import json, os, sys
root = sys.argv[1]
rows = {d: json.load(open(os.path.join(root, d, "status.json"))) for d in os.listdir(root)}
ok = set(rows) == {"skel1"} and all(r.get("status") == "graded" and r.get("attempts") == 1 for r in rows.values())
if not ok: print(rows, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
done
finish
