#!/usr/bin/env bash
# The console on a terminal and piped: colors and a redrawn progress line
# only on a terminal, NO_COLOR honoured, nothing extra on stderr when piped unless -v
# (then one line per step, with test i/n), every report line within 100 columns and
# the total last; on an 80-column terminal nothing past column 80. The terminal is a
# pseudo-terminal from script(1).
# e2e-subject: console
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_LOCK_DIR="$W/locks"
common=(lab01 --no-perf --work-dir "$W/work")

# Piped: no escape sequence anywhere, stderr holds the one "grading" line.
run_grade piped "${common[@]}"
expect_rc piped 1
if grep -q $'\x1b' "$W/piped.out" "$W/piped.err"; then fail "escape sequences when piped"; else pass "no escape sequences when piped"; fi
[ "$(grep -cv '^grade: grading lab01' "$W/piped.err")" = 0 ] && pass "piped: no progress on stderr" ||
  { fail "piped: stderr has more than the grading line"; sed 's/^/  | /' "$W/piped.err" >&2; }
too_wide=$(awk 'length($0) > 100' "$W/piped.out" | wc -l)
[ "$too_wide" = 0 ] && pass "every report line fits 100 columns" || fail "$too_wide report lines wider than 100 columns"
expect_in <(tail -n 1 "$W/piped.out") "^Total: 0 / (100|60 graded here .*--no-perf.*)$" "the total is the last line, with what --no-perf left out"

# -v piped: one timestamped line per step, with the test's place in the lab.
run_grade verbose "${common[@]}" -v
expect_in "$W/verbose.err" "^grade: \[[0-9]+:[0-9]{2}\] testing serial statistics \(test 1/[0-9]+\)$" "-v: a line per test with i/n"
expect_in "$W/verbose.err" "^grade: \[[0-9]+:[0-9]{2}\] building " "-v: the build step"

# On a terminal (stdout and stderr both): colors, and the progress line redrawn.
TERM=xterm script -qec "'$GRADE' ${common[*]}" /dev/null >"$W/tty.out"
if grep -q $'\x1b\\[3[12]m' "$W/tty.out"; then pass "terminal: statuses colored"; else fail "terminal: no colors"; fi
if grep -q $'\r\x1b\\[Kgrade: \\[' "$W/tty.out"; then pass "terminal: progress line redrawn on stderr"; else
  fail "terminal: no progress line"; fi
TERM=xterm NO_COLOR=1 script -qec "'$GRADE' ${common[*]} 2>/dev/null" /dev/null >"$W/nocolor.out"
if grep -q $'\x1b\\[' "$W/nocolor.out"; then fail "NO_COLOR: escape sequences on stdout"; else pass "NO_COLOR honoured"; fi
expect_in "$W/nocolor.out" "Total: 0 / " "NO_COLOR: the report is still there"

# An 80-column terminal: no line of the report or of the progress line
# drawn past column 80 (a wrapped progress line cannot be erased: "... (test 9/2" stays).
TERM=xterm script -qec "stty cols 80 rows 40; '$GRADE' ${common[*]}" /dev/null >"$W/tty80.out"
python3 - "$W/tty80.out" <<'PY' && pass "80 columns: nothing drawn past column 80" || fail "80 columns: lines wider than the terminal"
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)  # colors and erase-line codes take no column
wide = [seg for seg in re.split(r"[\r\n]", text) if len(seg) > 80]
for seg in wide: print(f"{len(seg)}: {seg}", file=sys.stderr)
sys.exit(1 if wide else 0)
PY
expect_in "$W/tty80.out" "Total: 0 / " "80 columns: the report is there"
# The same with a submission path longer than the terminal (a CI clone's deep folder):
# the "grade: grading ..." line is cut to fit too.
LONG="$W/a-submission-folder-whose-path-is-longer-than-an-eighty-column-terminal-line"
cp -r "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton" "$LONG"
chmod -R a+rX "$LONG"
TERM=xterm script -qec "stty cols 80 rows 40; '$GRADE' lab01 '$LONG' --no-perf --work-dir '$W/work'" /dev/null >"$W/tty80long.out"
python3 - "$W/tty80long.out" <<'PY' && pass "80 columns, long path: nothing drawn past column 80" || fail "80 columns, long path: lines wider than the terminal"
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
wide = [seg for seg in re.split(r"[\r\n]", text) if len(seg) > 80]
for seg in wide: print(f"{len(seg)}: {seg}", file=sys.stderr)
sys.exit(1 if wide else 0)
PY
expect_in "$W/tty80long.out" "grade: grading lab01 .*\.\.\." "80 columns, long path: the grading line is still said"
finish
