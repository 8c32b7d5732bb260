#!/usr/bin/env bash
# One student who holds every process their limit allows, graded beside 8 reference
# copies at --jobs = 2 x cores: every copy still gets full correctness marks on the
# first attempt, with no retry (each grading runs under its own pool uid, so the
# process limit is per grading: docs/sandbox.md), and the hog gets its own verdict.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
export PARLAB_LOCK_DIR="$W/locks"
if [ "$(id -u)" != 0 ]; then
  echo "skipped: per-grading uids need root (the grader is not root here)"
  exit 77
fi
mkdir -p "$W/class"
for i in 1 2 3 4 5 6 7 8; do cp -r "$REFERENCE" "$W/class/copy$i"; done
cp -r "$FAKES/hold_procs" "$W/class/hog"
jobs=$(( 2 * $(nproc) ))
run_grade batch batch lab01 "$W/class" --out "$W/out" --work-dir "$W/work" "${BATCH_OPTS[@]}" \
  --jobs "$jobs"
expect_rc batch 0
full=$(grep -c ',graded,.*,60,60,' "$W/out/gradebook.csv")
[ "$full" = 8 ] && pass "--jobs $jobs beside a process hog: all 8 copies full marks" ||
  { fail "only $full of 8 copies full marks"; sed 's/^/  | /' "$W/out/gradebook.csv" >&2; }
retried=$(grep -l '"attempts": [2-9]' "$W"/out/students/copy*/status.json 2>/dev/null | wc -l)
[ "$retried" = 0 ] && pass "no copy needed a retry" || fail "$retried copies needed a retry"
expect_in "$W/out/gradebook.csv" '^,hog,hog,graded,cpp,(0,)+(not graded,)+0,60,' "the hog is graded: 0 points, its own failures"
finish
