#!/usr/bin/env bash
# `grade export gradescope LAB --out autograder.zip` (docs/release.md): unpacked into a
# fake /autograder layout (PARLAB_AUTOGRADER_ROOT), setup.sh builds it and
# run_autograder grades /autograder/submission into results/results.json: a correct
# solution uploaded inside a folder, a Python upload in a folder (its track), a wrong one,
# and an empty upload (still a results.json the student can read).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/kit_lib.bash"
W="$E2E_WORK"
AG="$W/autograder"

run_grade export export gradescope lab01 --out "$W/autograder.zip"
expect_rc export 0
run_grade two export gradescope lab01 lab03 --out "$W/two.zip"
expect_rc two 2
run_grade badname export gradescope lab01 --out "$W/autograder.rar"
expect_rc badname 2

mkdir -p "$AG/source" "$AG/submission"
bsdtar -xf "$W/autograder.zip" -C "$AG/source" || fail "autograder.zip does not unpack"
[ -x "$AG/source/setup.sh" ] && [ -x "$AG/source/run_autograder" ] && pass "setup.sh and run_autograder at the top, executable" || fail "scripts missing"
no_reference_source_in "$AG/source"

# setup.sh as Gradescope runs it (it builds, installs and checks the skeleton).
# grade is installed under $W/prefix, not over this machine's /usr/local/bin/grade.
if ( kit_build_env "$AG/source" && PARLAB_INSTALL_PREFIX="$W/prefix" bash "$AG/source/setup.sh" ) >"$W/setup.log" 2>&1; then pass "setup.sh builds the autograder"; else
  fail "setup.sh failed"; tail -30 "$W/setup.log" >&2; finish; fi
[ -x "$W/prefix/bin/grade" ] && pass "setup.sh installs grade" || fail "setup.sh did not install grade"
# text: setup.sh's log is the product here (no JSON): it checked each track's skeleton
expect_in "$W/setup.log" "setup.sh: parlab is built and grades lab01 \(cpp python\)" "setup.sh checks the C++ and the Python skeleton"
cp "$AG/source/run_autograder" "$AG/run_autograder"  # where Gradescope puts it

run_autograder() {  # NAME: grades $AG/submission, keeps results.json as $W/NAME.json
  PARLAB_AUTOGRADER_ROOT="$AG" bash "$AG/run_autograder" >"$W/$1.log" 2>&1
  echo $? >"$W/$1.rc"
  cp "$AG/results/results.json" "$W/$1.json" 2>/dev/null || fail "$1: no results.json"
  cp "$AG/results/parlab-result.json" "$W/$1.parlab.json" 2>/dev/null || true
}
mkdir "$AG/submission/my-lab01"
cp "$PARLAB_SOURCE_DIR"/reference/lab01-multiprocessing/*.?pp "$AG/submission/my-lab01/"
run_autograder correct
[ "$(cat "$W/correct.rc")" = 0 ] && pass "run_autograder exits 0" || fail "run_autograder exit $(cat "$W/correct.rc")"
expect_field "$W/correct.json" tests '\[\{.*\}\]' "results.json has tests"
# Correctness only: speedups depend on how busy the machine is (reference_full_marks.sh).
python3 - "$W/correct.json" "$W/correct.parlab.json" <<'PY' && pass "the correct solution passes every correctness test" || fail "correct solution: $(head -c 600 "$W/correct.json")"
import json, sys
gradescope, parlab = (json.load(open(f)) for f in sys.argv[1:])
failed = [t["name"] for t in parlab["tests"] if t["kind"] != "performance" and t["status"] != "passed"]
assert gradescope["score"] >= 60 and not failed, (gradescope["score"], failed)
PY

# A Python upload, in a folder: found by its file_stats.py and graded on the Python track
# (the skeleton: it builds and fails with messages; its speed is not measured).
rm -rf "$AG/submission"/* && mkdir -p "$AG/submission/upload/lab01"
cp "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton/python/file_stats.py" "$AG/submission/upload/lab01/"
run_autograder python
expect_field "$W/python.parlab.json" track python "a Python upload is graded on the Python track"
expect_field "$W/python.parlab.json" build.ok true "... found inside its folder, and builds"
python3 - "$W/python.json" <<'PY' && pass "the Python skeleton's results.json: score 0, failed tests listed" || fail "Python upload: $(head -c 600 "$W/python.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] == 0 and any(t.get("status") == "failed" for t in r["tests"]), r["score"]
PY

rm -rf "$AG/submission"/* && cp "$FAKES/wrong/"* "$AG/submission/"
run_autograder wrong
python3 - "$W/wrong.json" <<'PY' && pass "a wrong solution scores less" || fail "wrong solution: $(head -c 600 "$W/wrong.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] < 60 and any(t.get("status") == "failed" for t in r["tests"]), r["score"]
PY

rm -rf "$AG/submission"/*
run_autograder empty
python3 - "$W/empty.json" <<'PY' && pass "an empty upload still gets a results.json with score 0" || fail "empty upload: $(head -c 600 "$W/empty.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] == 0, r
PY

# The grader itself failing (here a bad sandbox level: exit 2) still leaves a result.
cp "$FAKES/wrong/"* "$AG/submission/"
PARLAB_SANDBOX=bogus run_autograder toolerror
python3 - "$W/toolerror.json" <<'PY' && pass "a grader error leaves results.json with score 0 and the reason" || fail "tool error: $(head -c 600 "$W/toolerror.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] == 0 and "grade exit 2" in r["output"], r
PY
finish
