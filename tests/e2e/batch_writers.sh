#!/usr/bin/env bash
# One writer per output folder, and every batch in its own work area (docs/batch.md):
# two batches with one --work-dir both succeed; while a batch grades into OUT, another
# local batch, a Slurm array task of another submission and --collect are refused with
# a message naming the holder.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
export PARLAB_LOCK_DIR="$W/locks"
mkdir -p "$W/c1" "$W/c2"
for i in 1 2 3; do cp -r "$REFERENCE" "$W/c1/a$i"; cp -r "$REFERENCE" "$W/c2/b$i"; done

# --- two batches, one work dir, at the same time --------------------------------------
"$GRADE" batch lab01 "$W/c1" --out "$W/o1" --work-dir "$W/shared-work" "${BATCH_OPTS[@]}" --jobs 1 >"$W/b1.out" 2>&1 &
p1=$!
"$GRADE" batch lab01 "$W/c2" --out "$W/o2" --work-dir "$W/shared-work" "${BATCH_OPTS[@]}" --jobs 1 >"$W/b2.out" 2>&1 &
p2=$!
wait "$p1"; rc1=$?
wait "$p2"; rc2=$?
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && pass "two batches sharing a work dir both succeed" ||
  { fail "rc $rc1 / $rc2"; tail -n 20 "$W/b1.out" "$W/b2.out" >&2; }
for o in o1 o2; do
  [ "$(grep -c ',graded,.*,60,60,' "$W/$o/gradebook.csv")" = 3 ] && pass "$o: all full marks" || fail "$o: not all full marks"
done
ls -d "$W"/shared-work/batch/lab01-*/grade-work >/dev/null 2>&1 && pass "each batch works in its own area" ||
  fail "no per-batch work area under the work dir"

# --- a second writer on a busy OUT ----------------------------------------------------
for i in 4 5 6 7 8 9; do cp -r "$REFERENCE" "$W/c1/a$i"; done
"$GRADE" batch lab01 "$W/c1" --out "$W/o1" --work-dir "$W/work" "${BATCH_OPTS[@]}" --regrade --jobs 1 >"$W/busy.out" 2>&1 &
pid=$!
# text: the batch has taken the lock once it says what it grades (progress on stderr)
for _ in $(seq 1 300); do grep -q "to grade" "$W/busy.out" 2>/dev/null && break; sleep 0.1; done
run_grade local2 batch lab01 "$W/c1" --out "$W/o1" --work-dir "$W/work2" "${BATCH_OPTS[@]}"
expect_rc local2 2
# text: a refused batch writes no report, only this error naming the holder
expect_in "$W/local2.err" "another grade batch is writing to .*held by grade batch, pid $pid" "a second local batch is refused, naming the holder"
# What an array task of a Slurm submission runs (OUT/slurm/<stamp>/ids.txt).
mkdir -p "$W/o1/slurm/20990101-000000-1" && printf 'a1\na2\n' >"$W/o1/slurm/20990101-000000-1/ids.txt"
run_grade task batch lab01 "$W/c1" --out "$W/o1" --work-dir "$W/work3" "${BATCH_OPTS[@]}" \
  --id-list "$W/o1/slurm/20990101-000000-1/ids.txt" --slice 0/1
expect_rc task 2
# text: a refused task writes no report, only this error
expect_in "$W/task.err" "another grade batch is writing to" "a Slurm task is refused while a local batch writes"
run_grade collect batch --collect "$W/o1"
expect_rc collect 2
# text: a refused --collect writes nothing, only this error
expect_in "$W/collect.err" "another grade batch is writing to" "--collect is refused while a batch writes"
kill -9 "$pid"; wait "$pid" 2>/dev/null
run_grade collect2 batch --collect "$W/o1"
[ "$(rc_of collect2)" != 2 ] && pass "the lock died with its holder" || fail "lock outlived kill -9"
finish
