#!/usr/bin/env bash
# A batch on a small uid pool: --jobs 8 on a pool of 10 uids (each grading
# leases two) is lowered to 5 and said, gradings wait for a uid instead of failing, and
# every row is graded; a fork-loop student (EAGAIN in its own run, under its own uid)
# is graded on the first attempt, not an `error` row; a class folder with `josé/` and
# no roster is accepted. Root only (the pool is used when the grader is root).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
export PARLAB_LOCK_DIR="$W/locks"
if [ "$(id -u)" != 0 ]; then
  echo "skipped: the uid pool is used only when the grader is root"
  exit 77
fi
export PARLAB_UID_POOL=61300-61309 PARLAB_UID_POOL_DIR="$W/uids"
mkdir -p "$W/class"
for i in 1 2 3 4; do cp -r "$SKELETON" "$W/class/skel$i"; done
cp -r "$SKELETON" "$W/class/jos"$'\xc3\xa9'
cp -r "$FAKES/fork_loop" "$W/class/forker"
run_grade batch batch lab01 "$W/class" --out "$W/out" --work-dir "$W/work" "${BATCH_OPTS[@]}" --jobs 8
expect_rc batch 0
expect_field "$W/out/summary.json" last_run.jobs_asked 8 "--jobs 8 asked"
expect_field "$W/out/summary.json" last_run.jobs 5 "jobs capped by the pool"
expect_field "$W/out/summary.json" last_run.jobs_lowered_because "each grading leases 2 of the 10 sandbox uids.*" "and why, recorded"
python3 - "$W/out/students" <<'PY' && pass "every row graded, the fork loop on its first attempt, josé included" || fail "rows not all graded"
import json, os, sys
root = sys.argv[1]
rows = {d: json.load(open(os.path.join(root, d, "status.json"))) for d in os.listdir(root)}
bad = {d: (r.get("status"), r.get("attempts")) for d, r in rows.items() if r.get("status") != "graded"}
wanted = {"skel1", "skel2", "skel3", "skel4", "jos\u00e9", "forker"}
ok = set(rows) == wanted and not bad and rows["forker"].get("attempts") == 1
if not ok: print(sorted(rows), bad, rows.get("forker", {}).get("attempts"), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
expect_in "$W/out/gradebook.csv" $'jos\xc3\xa9' "josé in the gradebook, whole"
finish
