#!/usr/bin/env bash
# Tool errors: one line `grade: error: ...` and the documented exit code.
# e2e-subject: console
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade nolab lab99
expect_rc nolab 2
expect_in "$W/nolab.err" "^grade: error: unknown lab 'lab99'" "unknown lab named"
run_grade nodir lab01 "$W/does-not-exist"
expect_rc nodir 2
expect_in "$W/nodir.err" "^grade: error: submission folder not found" "missing folder named"
[ "$(wc -l <"$W/nodir.err")" = 1 ] && pass "a missing folder is one line" || fail "nodir printed $(wc -l <"$W/nodir.err") lines"
# A file given instead of its folder is explained as such.
run_grade file_not_dir lab01 "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton/file_stats.cpp"
expect_rc file_not_dir 2
expect_in "$W/file_not_dir.err" "^grade: error: .*file_stats.cpp is a file, not a folder: give the folder" "a file instead of a folder explained"
# No arguments: usage on stderr, stdout empty, exit 2.
run_grade noargs
expect_rc noargs 2
[ ! -s "$W/noargs.out" ] && pass "no arguments: nothing on stdout" || fail "no arguments printed usage on stdout"
expect_in "$W/noargs.err" "^usage: grade LAB" "no arguments: usage on stderr"
# A negative seed is refused, not read modulo 2^64.
run_grade negseed lab01 --seed -5
expect_rc negseed 2
expect_in "$W/negseed.err" "^grade: error: --seed must be a whole number" "negative seed refused"
# Report files are checked before grading: at once, one line, exit 2 or 3, nothing graded.
run_grade json_nodir lab01 --json "$W/no/such/folder/r.json"
expect_rc json_nodir 2
expect_in "$W/json_nodir.err" "^grade: error: --json .*: folder .* does not exist" "report folder missing: said before grading"
expect_not_in "$W/json_nodir.err" "grading lab01" "nothing graded before the report path was checked"
run_grade html_is_dir lab01 --html "$W"
expect_rc html_is_dir 2
expect_in "$W/html_is_dir.err" "^grade: error: --html .*: is a folder" "a folder given as a report file"
# nobody must reach grade and this folder: not so in a clone under /root (mode 0700).
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && ! su nobody -s /bin/bash -c "test -x '$GRADE'"; then
  echo "skipped: unwritable report folder check (nobody cannot reach $GRADE: a private parent folder)"
elif [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  mkdir -p "$W/as_nobody/readonly" && chmod 777 "$W/as_nobody" && chmod 555 "$W/as_nobody/readonly"
  chmod o+x "$W"
  su nobody -s /bin/bash -c "'$GRADE' lab01 --json '$W/as_nobody/readonly/r.json' >'$W/as_nobody/ro.out' 2>'$W/as_nobody/ro.err'; echo \$? >'$W/as_nobody/ro.rc'"
  cp "$W/as_nobody/ro.out" "$W/as_nobody/ro.err" "$W/as_nobody/ro.rc" "$W/"
  expect_rc ro 3
  expect_in "$W/ro.err" "^grade: error: --json .*: cannot write in" "unwritable report folder: exit 3 up front"
else
  echo "skipped: unwritable report folder check (needs root to run as nobody)"
fi
run_grade badseed lab01 --seed banana
expect_rc badseed 2
expect_in "$W/badseed.err" "^grade: error: .*seed" "bad option value named"
run_grade both lab01 --reference "$W"
expect_rc both 2
run_grade nocmd frobnicate
expect_rc nocmd 2
run_grade notoolchain lab01 --toolchain "$W/nope.json"
expect_rc notoolchain 3
expect_in "$W/notoolchain.err" "^grade: error: toolchain file" "missing toolchain is an environment error"
# As root, children run unprivileged: a work dir they cannot reach is the grader's
# problem (exit 3), never a student's failed build. (A private *parent* is bridged:
# private_parent.sh.)
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$W/private" && chmod 700 "$W/private"
  run_grade private lab01 --no-perf --work-dir "$W/private"
  expect_rc private 3
  expect_in "$W/private.err" "^grade: error: work dir .* is not reachable" "unreachable work dir named"
else
  echo "skipped: unreachable work dir check (needs root, where the sandbox drops privileges)"
fi
run_grade help lab01 --help
expect_rc help 0
expect_in "$W/help.out" "--no-perf" "help lists options"
run_grade list list
expect_rc list 0
expect_in "$W/list.out" "lab01 +cpu +cpp, python +100 +Multiprocessing" "list shows lab01 with its tracks"
# A broken spec is reported with file:line.
mkdir -p "$W/labs/lab01-multiprocessing"
cp -r "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/." "$W/labs/lab01-multiprocessing/"
sed -i 's/^points = 10$/points = "ten"/' "$W/labs/lab01-multiprocessing/lab.toml"
tc="$(dirname "$GRADE")/toolchain.json"
python3 - "$tc" "$W/tc.json" "$W/labs/lab01-multiprocessing" <<'PY'
import json, sys
toolchain = json.load(open(sys.argv[1]))
toolchain["labs"]["lab01"]["dir"] = sys.argv[3]  # the copy with the broken spec
json.dump(toolchain, open(sys.argv[2], "w"), indent=1)
PY
run_grade badspec lab01 --toolchain "$W/tc.json"
expect_rc badspec 2
expect_in "$W/badspec.err" "^grade: error: .*lab.toml:[0-9]+:[0-9]+: test '.*': points must be a number|^grade: error: .*lab.toml:[0-9]+:[0-9]+: .*points" "bad spec names file:line"
finish
