#!/usr/bin/env bash
# `grade batch --slurm` on a real single-node Slurm (slurmctld + slurmd on localhost,
# started here from a generated slurm.conf): a 20-submission class as a job array of
# 4 tasks, one of which fails (cancelled before it runs); the dependent collect job
# still builds the gradebook, with that task's students pending; re-running the same
# command grades just them; the final gradebook equals a local batch of the same class.
# Skips (exit 77) when Slurm is not installed or cannot start here, unless
# PARLAB_REQUIRE_SLURM=1 (CI), where not starting is a failure.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
source "$(dirname "$0")/slurm_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
export PARLAB_LOCK_DIR="$W/locks"

if ! slurm_start "$W/slurm"; then
  if [ "${PARLAB_REQUIRE_SLURM:-0}" = 1 ]; then
    fail "Slurm did not start: $SLURM_SKIP_REASON"; finish
  fi
  echo "skipped: $SLURM_SKIP_REASON"
  exit 77
fi
jobs_submitted=()
cleanup() {
  [ ${#jobs_submitted[@]} -gt 0 ] && scancel "${jobs_submitted[@]}" 2>/dev/null
  slurm_stop "$W/slurm"
}
trap cleanup EXIT
pass "single-node Slurm up ($(sinfo -h -o '%N %c CPUs'))"

make_class "$W/class" "$W/t"
common=(lab01 "$W/class" --roster "$W/t/roster.csv" "${BATCH_OPTS[@]}")

run_grade local batch "${common[@]}" --work-dir "$W/work-local" --out "$W/local" --jobs 2
expect_rc local 0

# --- submit held, make task 1 fail, let the rest run ----------------------------------
run_grade submit batch "${common[@]}" --work-dir "$W/work-slurm" --out "$W/slurm-out" --slurm \
  --per-task 5 --jobs 1 --sbatch-arg=--hold
expect_rc submit 0
L="$W/slurm-out/slurm/latest.json"  # the submission's jobs, as the grader records them
expect_field "$L" tasks 4 "array of 4 tasks submitted"
expect_field "$L" students 20 "for the 20 submissions"
expect_field "$L" array_job '[0-9]+' "the array job's id recorded"
expect_field "$L" collect_job '[0-9]+' "the collect job's id recorded"
array=$(result_field "$L" array_job)
collect=$(result_field "$L" collect_job)
jobs_submitted+=("$array" "$collect")
script=$(ls "$W"/slurm-out/slurm/*/array.sbatch | head -1)
expect_in "$script" "^#SBATCH --array=0-3$" "script: one task per slice"
expect_in "$script" "--slice \"\\\$\{SLURM_ARRAY_TASK_ID\}/4\"" "script: tasks pick their slice"
scancel "${array}_1"
scontrol release "$array" >/dev/null 2>&1
# While a task grades, the output folder is theirs: a local batch is refused, naming them.
for _ in $(seq 1 600); do
  grep -qs "to grade with" "$W"/slurm-out/slurm/*/task-0.log && break  # text: task 0 started (its progress log)
  sleep 0.1
done
run_grade intruder batch "${common[@]}" --work-dir "$W/work-intruder" --out "$W/slurm-out" --only s001
expect_rc intruder 2
# text: a refused batch writes no report, only this error
expect_in "$W/intruder.err" "held by the tasks of Slurm submission" "a local batch on a Slurm submission's folder is refused"
# An array task of another submission (what its sbatch script runs) is refused too.
mkdir -p "$W/slurm-out/slurm/other-submission" && echo s001 >"$W/slurm-out/slurm/other-submission/ids.txt"
run_grade other_task batch "${common[@]}" --work-dir "$W/work-other" --out "$W/slurm-out" \
  --id-list "$W/slurm-out/slurm/other-submission/ids.txt" --slice 0/1
expect_rc other_task 2
# text: a refused task writes no report, only this error
expect_in "$W/other_task.err" "held by the tasks of Slurm submission" "another submission's task is refused"
rm -rf "$W/slurm-out/slurm/other-submission"
if slurm_wait_job "$collect" 400; then pass "collect job ran after the array"; else fail "collect job still queued"; squeue >&2; fi
G="$W/slurm-out/gradebook.csv"
[ -s "$G" ] && pass "collect job wrote the gradebook" || fail "no gradebook after the collect job"
pending=$(grep -c ',pending,' "$G")
[ "$pending" = 5 ] && pass "the failed task's 5 students are pending rows" || fail "pending rows: $pending, expected 5"
[ "$(awk 'NR > 1' "$G" | wc -l)" = 21 ] && pass "no missing row while a task failed" || fail "row count"
# text: a task's progress exists only in its log
for log in "$W"/slurm-out/slurm/*/task-0.log; do expect_in "$log" "grade: batch: \[5/5\]" "task 0 graded its slice"; done

# --- the same command again: only the pending students ---------------------------------
run_grade resubmit batch "${common[@]}" --work-dir "$W/work-slurm" --out "$W/slurm-out" --slurm --per-task 5 --jobs 1
expect_rc resubmit 0
expect_field "$L" tasks 1 "re-run submits one task"
expect_field "$L" students 5 "for only the 5 pending"
collect2=$(result_field "$L" collect_job)
jobs_submitted+=("$(result_field "$L" array_job)" "$collect2")
slurm_wait_job "$collect2" 400 && pass "second collect job ran" || fail "second collect job still queued"

collect_script=$(ls "$W"/slurm-out/slurm/*/collect.sbatch | head -1)
expect_in "$collect_script" "--slurm-submission" "the collect job shares its submission's lock"

# Correctness points exactly equal (--no-perf: there are no timing-dependent points).
if diff "$W/local/gradebook.csv" "$G" >"$W/compare.diff"; then
  pass "Slurm gradebook equals the local batch's"
else
  fail "Slurm and local gradebooks differ"; sed 's/^/  | /' "$W/compare.diff" >&2
fi
if diff <(expected_statuses) <(gradebook_statuses "$G") >/dev/null; then pass "expected statuses"; else fail "statuses"; fi
finish
