#!/usr/bin/env bash
# A submission's exception message and stderr carry terminal escape sequences and a
# "# PASS 100/100" line: console, Markdown, JUnit and Gradescope show them escaped,
# and the Markdown report has no heading the grader did not write.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade esc lab01 "$FAKES/escapes" --no-perf --work-dir "$W/work" --json "$W/r.json" \
  --markdown "$W/r.md" --junit "$W/r.xml" --gradescope "$W/gs.json"
expect_rc esc 1
gs="$W/gs.json"
for f in "$W/esc.out" "$W/esc.err" "$W/r.md" "$W/r.xml" "$gs"; do
  # text: a raw control byte must appear in no byte of any output
  if LC_ALL=C grep -q $'\x1b\|\x07\|\x9b' "$f"; then
    fail "$f holds a raw control character"; LC_ALL=C grep -n $'\x1b\|\x07\|\x9b' "$f" | cat -v | head -5 >&2
  else pass "$(basename "$f"): no raw ESC, BEL or CSI"; fi
done
# text: how the console shows untrusted bytes is the subject
expect_in "$W/esc.out" '\\x1b\]52;c;cm0gLXJmIH4=' "console shows the clipboard write as text"
expect_in "$W/esc.out" '\\x1b\[2J' "console shows the screen clear as text" # text: console rendering
expect_in "$W/r.md" '\\x1b\[2J' "markdown shows the screen clear as text"
expect_in "$W/r.xml" '\\x1b\[2J' "junit shows the screen clear as text"
expect_field "$gs" "tests.serial statistics.output" '.*\\x1b\[2J.*' "gradescope shows the screen clear as text"
ctl=$'\x1b\x07'
expect_field "$gs" "tests.serial statistics.output" "[^$ctl]*" "gradescope's parsed output holds no ESC or BEL"
# text: how the console shows untrusted bytes is the subject
expect_in "$W/esc.out" '\\x9b2J|\\u009b' "the 8-bit CSI is shown escaped"
# Markdown: "# PASS" only ever inside a fence; the only level-1 heading is the title.
headings=$(awk '/^```/ { if (!f) { f=$0; sub(/text$/, "", f); next } else if ($0 == f) { f=""; next } }
                !f && /^# / { n++ } END { print n + 0 }' "$W/r.md")
[ "$headings" = 1 ] && pass "markdown has one level-1 heading (its title)" || fail "markdown has $headings level-1 headings"
expect_in "$W/r.md" '# PASS 100/100' "the line is shown, as text"
finish
