#!/usr/bin/env bash
# Nothing of the grader's is readable by a submission's uid at any sandbox level
# (docs/sandbox.md, "Sealed at every level"): a lab01 fake with no lab code walks
# every folder it can enter from / and tries to open every file of the grader's
# source and build folders (its git history included) that is not a path a
# submission needs; graded as root at --sandbox off, at auto without bubblewrap and
# at the default level, it must find none, and the reference keeps its marks after.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
[ "$(id -u)" = 0 ] || { echo "skipped: needs a root grader (the uid pool)"; exit 77; }
TOOLCHAIN="$(dirname "$GRADE")/toolchain.json"
mkdir -p "$W/work" "$W/walk"
# Run first so the work root is registered, then read what a submission may reach.
run_grade warmup lab01 --reference --no-perf --work-dir "$W/work" --sandbox off --json "$W/warmup.json"
read -r ROOTS ALLOWED < <(python3 - "$TOOLCHAIN" "$W/work" <<'PY'
import json, os, sys
tc = json.load(open(sys.argv[1]))
roots = [tc["source_dir"], tc["build_dir"]]
allowed = [sys.argv[2], tc["harness_include"], tc["harness_lib"], tc.get("cuda_probe", ""),
           os.path.join(tc["build_dir"], "tests", "fakes")]  # the runner tests' fake children
sim = tc.get("sim", {})
allowed += [sim.get("rewrite_tool", ""), sim.get("library", ""), sim.get("prelude_pch_dir", "")]
allowed += sim.get("include", [])
for lab in tc["labs"].values():
    allowed += [lab.get("dir", ""), lab.get("driver_lib", ""), lab.get("sim_driver_lib", "")]
registry = os.path.join(tc["build_dir"], "grader-work-roots")
if os.path.exists(registry):
    allowed += [l.strip() for l in open(registry) if l.startswith("/")]
print(";".join(roots), ";".join(os.path.normpath(a) for a in allowed if a))
PY
)
sed -e "s|@GRADER_ROOTS@|$ROOTS|" -e "s|@ALLOWED@|$ALLOWED|" \
  "$PARLAB_SOURCE_DIR/tests/fakes/sandbox/walk_grader_files/file_stats.cpp" >"$W/walk/file_stats.cpp"

walked() {  # REPORT: the entries the walk reports
  result_field "$1" '*output' | sed -n 's/.*grader files readable .*), \([0-9]*\) entries walked.*/\1/p' | head -1
}
for level in off fallback default; do
  case $level in
    off) args=(--sandbox off) ;;
    fallback) args=(--sandbox auto); export PARLAB_BWRAP=/nonexistent/bwrap ;;
    default) args=(); unset PARLAB_BWRAP ;;
  esac
  run_grade "walk_$level" lab01 "$W/walk" --no-perf --wall-limit 120 --work-dir "$W/work" "${args[@]}" \
    --json "$W/walk_$level.json"
  unset PARLAB_BWRAP
  expect_field "$W/walk_$level.json" score '0(\.0*)?' "walk at $level: no points for no lab code"
  expect_output "$W/walk_$level.json" 'WALK: 0 grader files readable' "walk at $level: no grader file readable"
  n=$(walked "$W/walk_$level.json")
  # Without bubblewrap the walk covers the host (tens of thousands of entries); the
  # check that it ran at all holds at every level.
  min=100; [ "$level" = default ] || min=10000
  [ "${n:-0}" -ge "$min" ] && pass "walk at $level covered $n entries" || fail "walk at $level walked ${n:-nothing} (< $min)"
done
expect_field "$W/warmup.json" score '60(\.0*)?' "the reference keeps its correctness marks with the tree sealed"
finish
