#!/usr/bin/env bash
# The Gradescope bundle's run_autograder (docs/release.md) with hostile upload folder
# names, against a stand-in `grade` that records what it was asked: a folder whose
# name holds a newline must not redirect the grading to another folder, the level
# setup.sh recorded (source/sandbox-level) is the one used, and the student's
# result says which sandbox graded it.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
AG="$W/autograder"

run_grade export export gradescope lab01 --out "$W/autograder.zip"
expect_rc export 0
mkdir -p "$AG/source" "$AG/submission"
bsdtar -xf "$W/autograder.zip" -C "$AG/source" run_autograder setup.sh || fail "autograder.zip does not unpack"
expect_in "$AG/source/setup.sh" 'sandbox-level' "setup.sh records the sandbox level this image allows"
expect_in "$AG/source/setup.sh" 'bwrap --unshare-all' "setup.sh tries bubblewrap"

# The stand-in: records its submission folder and level, writes both result files.
mkdir -p "$AG/source/build"
cat >"$AG/source/build/grade" <<'SH'
#!/usr/bin/env bash
printf '%s' "$2" >"$STANDIN_LOG.folder"
level=; gs=; json=
while [ $# -gt 0 ]; do
  case $1 in --sandbox) level=$2; shift ;; --gradescope) gs=$2; shift ;; --json) json=$2; shift ;; esac
  shift
done
printf '%s' "$level" >"$STANDIN_LOG.level"
echo '{"score": 1, "output": "graded"}' >"$gs"
echo "{\"host\": {\"sandbox\": \"rlimits only\", \"sandbox_level\": \"$level\"}}" >"$json"
SH
chmod +x "$AG/source/build/grade"
export STANDIN_LOG="$W/standin"
echo auto >"$AG/source/sandbox-level"

# The attack: the real upload lies in a folder named "x<newline>0 $W/elsewhere", so a
# line-based search would read "0 $W/elsewhere" as the shallowest match.
mkdir -p "$W/elsewhere" "$AG/submission/x
0 $W/elsewhere"
touch "$W/elsewhere/file_stats.cpp" "$AG/submission/x
0 $W/elsewhere/file_stats.cpp"
PARLAB_AUTOGRADER_ROOT="$AG" bash "$AG/source/run_autograder" >"$W/run.log" 2>&1 || fail "run_autograder exited $?"
got=$(cat "$W/standin.folder")
[ "$got" = "$AG/submission/x
0 $W/elsewhere" ] && pass "a newline in the folder name does not redirect the grading" ||
  fail "graded '$got' instead of the uploaded folder"
[ "$(cat "$W/standin.level")" = auto ] && pass "the level from setup.sh is used" || fail "level $(cat "$W/standin.level")"
expect_field "$AG/results/results.json" output 'Graded in the sandbox: rlimits only \(level auto\)\..*' \
  "the student's result names the sandbox, first thing"

# A plain upload in a folder is still found; PARLAB_SANDBOX still overrides.
rm -rf "$AG/submission"/* && mkdir "$AG/submission/my lab" && touch "$AG/submission/my lab/file_stats.cpp"
PARLAB_SANDBOX=require PARLAB_AUTOGRADER_ROOT="$AG" bash "$AG/source/run_autograder" >"$W/run2.log" 2>&1
[ "$(cat "$W/standin.folder")" = "$AG/submission/my lab" ] && pass "an upload inside a folder is graded there" ||
  fail "graded '$(cat "$W/standin.folder")'"
[ "$(cat "$W/standin.level")" = require ] && pass "PARLAB_SANDBOX overrides the recorded level" || fail "level $(cat "$W/standin.level")"
finish
