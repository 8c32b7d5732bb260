#!/usr/bin/env bash
# `--jobs` at twice the cores on 20 copies of the reference: every copy gets full
# correctness marks. Gradings compete for the processes, memory and locks they share;
# a failure of those is retried as the grader's (docs/batch.md "Infrastructure
# failures are never the student's"), never a lost point.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
export PARLAB_LOCK_DIR="$W/locks"
mkdir -p "$W/class"
for i in $(seq -w 1 20); do cp -r "$REFERENCE" "$W/class/copy$i"; done
jobs=$(( 2 * $(nproc) ))
start=$(date +%s)
run_grade batch batch lab01 "$W/class" --out "$W/out" --work-dir "$W/work" "${BATCH_OPTS[@]}" --jobs "$jobs"
echo "20 gradings with --jobs $jobs on $(nproc) cores: $(( $(date +%s) - start )) s"
expect_rc batch 0
full=$(grep -c ',graded,.*,60,60,' "$W/out/gradebook.csv")
[ "$full" = 20 ] && pass "--jobs $jobs: all 20 copies full marks" ||
  { fail "only $full of 20 full marks"; grep -v ',60,60,' "$W/out/gradebook.csv" | sed 's/^/  | /' >&2; }
retried=$(grep -l '"attempts": [2-9]' "$W"/out/students/*/status.json 2>/dev/null | wc -l)
echo "gradings that needed a retry: $retried"
finish
