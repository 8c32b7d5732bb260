#!/usr/bin/env bash
# The fallback sandbox sealed (docs/sandbox.md, "Sealed at every level"), graded as
# root at `--sandbox off` and at `--sandbox auto` without bubblewrap: lab01 fakes with
# no lab code that run the reference executable (exec at run time, .incbin at compile
# time) or include the reference source get 0 points; one that leaves 100 MB in
# /dev/shm and /tmp, a SysV segment and a daemon leaves nothing behind; one that looks
# at /proc sees no other user's process; the reference keeps its correctness marks.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
[ "$(id -u)" = 0 ] || { echo "skipped: needs a root grader (the uid pool)"; exit 77; }
SEALED="$PARLAB_SOURCE_DIR/tests/fakes/sandbox"
read -r REF_EXE REF_DIR < <(python3 - "$(dirname "$GRADE")/toolchain.json" <<'PY'
import json, sys
lab = json.load(open(sys.argv[1]))["labs"]["lab01"]
print(lab["reference_exe"], lab["reference_dir"])
PY
)
for fake in exec_reference incbin_reference include_reference leave_files see_processes; do
  mkdir -p "$W/$fake"
  sed -e "s|@REFERENCE_EXE@|$REF_EXE|g" -e "s|@REFERENCE_DIR@|$REF_DIR|g" \
    "$SEALED/$fake/file_stats.cpp" >"$W/$fake/file_stats.cpp"
done

score_of() { python3 -c 'import json,sys; print("%g" % json.load(open(sys.argv[1]))["score"])' "$1"; }
expect_zero() {  # NAME WHAT
  local got; got=$(score_of "$W/$1.json" 2>/dev/null || echo "no result")
  [ "$got" = 0 ] && pass "$2: 0 points" || { fail "$2: score $got"; tail -30 "$W/$1.out" | sed 's/^/  | /' >&2; }
}

for level in off auto; do
  for fake in exec_reference incbin_reference include_reference; do
    PARLAB_BWRAP=/nonexistent/bwrap run_grade "${fake}_$level" lab01 "$W/$fake" --no-perf --wall-limit 10 \
      --work-dir "$W/work" --sandbox "$level" --json "$W/${fake}_$level.json"
    expect_zero "${fake}_$level" "$fake at --sandbox $level"
  done
  expect_output "$W/exec_reference_$level.json" 'EXEC: running the reference failed: Permission denied' \
    "exec_reference at $level: the exec is refused"
  expect_field "$W/incbin_reference_$level.json" build.ok false "incbin_reference at $level: the build fails"
  expect_field "$W/incbin_reference_$level.json" build.log '.*(Permission denied|file not found).*' \
    "incbin_reference at $level: the compiler may not read the reference"

  PARLAB_BWRAP=/nonexistent/bwrap run_grade "see_$level" lab01 "$W/see_processes" --no-perf --wall-limit 10 \
    --work-dir "$W/work" --sandbox "$level" --json "$W/see_$level.json"
  expect_output "$W/see_$level.json" 'SEEN: 0 processes of other users' "see_processes at $level: no other user's process visible"

  PARLAB_BWRAP=/nonexistent/bwrap run_grade "litter_$level" lab01 "$W/leave_files" --no-perf --wall-limit 10 \
    --work-dir "$W/work" --sandbox "$level" --json "$W/litter_$level.json"
  expect_zero "litter_$level" "leave_files at --sandbox $level"
  expect_output "$W/litter_$level.json" 'LITTER: left files' "leave_files at $level ran and left its litter"
  if ls /dev/shm/parlab-litter-* /tmp/parlab-litter-* >/dev/null 2>&1; then
    fail "leave_files at $level: files left: $(ls /dev/shm/parlab-litter-* /tmp/parlab-litter-* 2>/dev/null | head -3)"
  else pass "leave_files at $level: nothing left in /dev/shm and /tmp"; fi
  if pgrep -f 'sleep 3599.271' >/dev/null; then fail "leave_files at $level: its daemon is still running"
  else pass "leave_files at $level: its daemon is gone"; fi
  # 1 MiB segments owned by a pool uid (60500-60627 by default).
  if [ -n "$(awk 'NR > 1 && $4 == 1048576 && $8 >= 60500 && $8 <= 60627' /proc/sysvipc/shm)" ]; then
    fail "leave_files at $level: its shared memory segment is left"
  else pass "leave_files at $level: no shared memory segment left"; fi
done
expect_field "$W/litter_auto.json" host.isolation '.*private /proc \(hidepid\).*' "the report says other processes are hidden"

# The reference keeps its marks, and its speed baseline (run as the reference's uid) works.
PARLAB_BWRAP=/nonexistent/bwrap run_grade reference lab01 --reference --work-dir "$W/work" \
  --sandbox auto --json "$W/reference.json"
python3 - "$W/reference.json" <<'PY' && pass "the reference passes its correctness tests and its baselines ran" || fail "reference: $(head -c 800 "$W/reference.json")"
import json, sys
r = json.load(open(sys.argv[1]))
tests = r["tests"]
wrong = [(t["name"], t["status"]) for t in tests if t["kind"] != "performance" and t["status"] != "passed"]
assert not wrong, wrong
# Speed depends on the machine's load; the baseline failing to run does not.
broken = [t["name"] for t in tests if "reference baseline" in t.get("message", "")]
assert not broken, broken
assert any(t["kind"] == "performance" for t in tests)
PY
# Without the pool (PARLAB_NO_UID_POOL=1, every run as nobody) the reference still
# runs, with the references' group, and the submission still may not run it.
PARLAB_NO_UID_POOL=1 PARLAB_BWRAP=/nonexistent/bwrap run_grade nopool_reference lab01 --reference --no-perf \
  --work-dir "$W/work" --sandbox auto --json "$W/nopool_reference.json"
expect_rc_or_busy nopool_reference 0
PARLAB_NO_UID_POOL=1 PARLAB_BWRAP=/nonexistent/bwrap run_grade nopool_exec lab01 "$W/exec_reference" --no-perf \
  --wall-limit 10 --work-dir "$W/work" --sandbox auto --json "$W/nopool_exec.json"
expect_zero nopool_exec "exec_reference without the uid pool"
# A worker killed by the memory cgroup, its parent then blocked on a pipe nobody
# writes: out of memory, never "deadlock" (seen in 2 runs of 3). With
# bubblewrap where it works (auto), as first measured; 3 gradings.
level=auto
for i in 1 2 3; do
  run_grade "oom_$i" lab01 "$SEALED/oom_worker" --no-perf --wall-limit 20 --work-dir "$W/work" \
    --sandbox "$level" --json "$W/oom_$i.json"
  python3 - "$W/oom_$i.json" <<'PY' && pass "oom_worker ($level, grading $i): memory limit, not deadlock" || fail "oom_worker $i: $(grep -o '"message": "[^"]*' "$W/oom_$i.json" | head -2)"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
assert t["outcome"] == "memory_limit" and "deadlock" not in t["message"], (t["outcome"], t["message"])
PY
done
# The seal itself: the submissions' group (60498) with no group permission, so every
# run of a submission is refused while other users (a student grading as themselves)
# keep the others' permission.
[ $(( 0$(stat -c '%a' "$REF_EXE") & 070 )) = 0 ] && pass "the reference executable has no group permission" || fail "reference mode $(stat -c '%a' "$REF_EXE")"
[ "$(stat -c '%g' "$REF_EXE")" = 60498 ] && pass "the reference executable has the submissions' group" || fail "reference gid $(stat -c '%g' "$REF_EXE")"
finish
