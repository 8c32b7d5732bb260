#!/usr/bin/env bash
# Tool errors: one line `grade: error: ...` and the documented exit code.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade nolab lab99
expect_rc nolab 2
expect_in "$W/nolab.err" "^grade: error: unknown lab 'lab99'" "unknown lab named"
run_grade nodir lab01 "$W/does-not-exist"
expect_rc nodir 2
expect_in "$W/nodir.err" "^grade: error: submission folder not found" "missing folder named"
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
expect_in "$W/list.out" "lab01 +cpu +100 +Multiprocessing" "list shows lab01"
# A broken spec is reported with file:line.
mkdir -p "$W/labs/lab01-multiprocessing"
cp -r "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/." "$W/labs/lab01-multiprocessing/"
sed -i 's/^points = 10$/points = "ten"/' "$W/labs/lab01-multiprocessing/lab.toml"
tc="$(dirname "$GRADE")/toolchain.json"
sed "s#\"dir\": \"[^\"]*labs/lab01-multiprocessing\"#\"dir\": \"$W/labs/lab01-multiprocessing\"#" "$tc" >"$W/tc.json"
run_grade badspec lab01 --toolchain "$W/tc.json"
expect_rc badspec 2
expect_in "$W/badspec.err" "^grade: error: .*lab.toml:[0-9]+:[0-9]+: test '.*': points must be a number|^grade: error: .*lab.toml:[0-9]+:[0-9]+: .*points" "bad spec names file:line"
finish
