#!/usr/bin/env bash
# "Not graded" is not a zero, and every total says out of what: a small lab03 class
# graded in the simulator (the reference, one that does not compile, one that crashes
# in vector_add), each graded once. The GPU-only performance tests are out of every
# total with their reason: the gradebook's max is what was reachable (68, not 100) and
# their cells say "not graded"; Gradescope's results.json of the build failure sums to
# the same 68 as a graded upload, with no status on left-out tests; JUnit skips them;
# the reports show "- / N", the build failure's first error with its own file:line and
# no grader work path; the class page says where it was graded, which tests could not
# be graded there, and who crashed (checked in Chromium when it is installed); a
# regrade with --only records why; --collect removes what a killed one left.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_LOCK_DIR="$W/locks"
export PARLAB_SIM_ALLOW_EXITED_AT_BARRIER=1
REF="$PARLAB_SOURCE_DIR/reference/lab03-cuda-kernels"
SKEL="$PARLAB_SOURCE_DIR/labs/lab03-cuda-kernels/skeleton"

C="$W/class"
rm -rf "$C" "$W/out"
mkdir -p "$C/broken" "$C/crashy"
cp -r "$REF" "$C/ref"
cp "$SKEL/kernels.cu" "$C/broken/"
printf '\nint broken( { return 0 }\n' >>"$C/broken/kernels.cu"
error_line=$(wc -l <"$C/broken/kernels.cu")
cp "$REF/kernels.cu" "$C/crashy/"
sed -i '/^void vector_add(/a\  __builtin_trap();' "$C/crashy/kernels.cu"
grep -q __builtin_trap "$C/crashy/kernels.cu" || fail "the crashing fake was not made"

run_grade batch batch lab03 "$C" --out "$W/out" --work-dir "$W/work" --jobs 3
expect_rc batch 0
O="$W/out"
G="$O/gradebook.csv"

# --- gradebook: out of what was reachable; not graded is not 0 ------------------------
expect_in "$G" '^,ref,ref,graded,.*,68,68,' "the reference: 68 out of the 68 reachable in sim"
expect_in "$G" '^,broken,broken,build_failed,.*,0,68,' "the build failure: out of the same 68"
expect_in "$G" '^,ref,ref,graded,.*,not graded,not graded,8,not graded,' "GPU-only tests say not graded, not 0"
expect_not_in "$G" ',100,' "no row is out of the lab's 100"
expect_in "$W/batch.err" 'ref: graded, 68/68' "progress: out of the reachable score"  # text: the progress line is the subject

# --- Gradescope: the same out-of for a build failure as for a graded upload -----------
gs_total() {  # RESULTS_JSON: "score/sum of max_score/tests with status on a 0-point test"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["tests"]
print("%g/%g/%d" % (d["score"], sum(x["max_score"] for x in t), sum(1 for x in t if x["max_score"] == 0 and "status" in x)))' "$1"
}
got=$(gs_total "$O/students/ref/gradescope/results.json")
[ "$got" = "68/68/0" ] && pass "Gradescope, graded upload: 68 of 68, left-out tests carry no status" || fail "ref: $got"
got=$(gs_total "$O/students/broken/gradescope/results.json")
[ "$got" = "0/68/0" ] && pass "Gradescope, build failure: 0 of the same 68" || fail "broken: $got"

# --- the build failure's report: first error first, its own file:line, no work path ---
R="$O/students/broken/report.md"
expect_in "$R" "first error: kernels.cu:$error_line: " "each test row names the first compiler error, file:line"
expect_not_in "$R" 'see the build errors above' "no 'see above' for a section below"
expect_not_in "$R" "$W/work" "no grader work path in the report"
[[ "$(result_field "$O/students/broken/result.json" build log)" != *"$W/work"* ]] && pass "no grader work path in the build log" ||
  fail "the build log shows the grader's work path"
expect_in "$R" '\| not_graded \| - / 8 \|' "a not-graded test reads '- / 8', not '0 / 8'"

# --- JUnit and the console from the crashing student's result ------------------------
run_grade junit report "$O/students/crashy/result.json" --format junit
expect_in "$W/junit.out" '<skipped message="not graded here \(need a GPU\)' "JUnit: a not-graded test is skipped with its reason"  # text: the JUnit XML is the subject
run_grade console report "$O/students/crashy/result.json"
expect_in "$W/console.out" 'not graded +- / 32' "console: '- / 32' for the not-graded tests, not 0 / 32"  # text: the console row is the subject

# --- the class page ---------------------------------------------------------------------
S="$O/summary.md"
expect_in "$S" '^Graded on: simulator, on the CPU' "the summary says where the class was graded"
expect_in "$S" '^- vector_add bandwidth \(8 points, 3 students\): ' "and which tests could not be graded there"
expect_in "$S" '## Scores \(out of 68 reachable where it was graded; the lab has 100\)' "scores out of the reachable 68"
expect_in "$S" '\| 90-100 % \| # 1 \|' "the reference's 68 of 68 is drawn as full, not as 60-70 %"
expect_in "$S" '\| vector_add bandwidth \| performance \| 8 \| not graded there \| - \| 3 \|' "a GPU-only test is counted as not graded, not as 0 / 3"
expect_in "$S" '^- crashy: crashed \(killed by a signal\) in ' "the crashing student is named"
expect_in "$S" '^- broken: did not compile: kernels.cu:'"$error_line"':' "the build failure is named, with its line"
modes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["graded_where"]["modes"])' "$O/summary.json")
[ "$modes" = "['sim']" ] && pass "summary.json: graded in sim" || fail "summary.json graded_where.modes: $modes"

# --- a regrade with --only leaves its reason in the record --------------------------
cp "$G" "$W/before-only.csv"
run_grade only batch lab03 "$C" --out "$O" --work-dir "$W/work" --only broken
expect_rc only 0
expect_field "$O/students/broken/status.json" requested_by "--only" "the regraded record says --only asked for it"
diff -q "$W/before-only.csv" "$G" >/dev/null && pass "the gradebook is unchanged by the regrade" || fail "--only changed the gradebook"

# --- a killed --collect leaves half-written files: the next --collect removes them ----
: >"$O/.gradebook.csv.tmp.4242.1"
: >"$O/.summary.html.tmp.4242.2"
run_grade collect batch --collect "$O"
expect_rc collect 0
[ -z "$(find "$O" -name '*.tmp.4242.*')" ] && pass "--collect removes a killed writer's temp files" || fail "temp files left"
diff -q "$W/before-only.csv" "$G" >/dev/null && pass "--collect rebuilds the same gradebook" || fail "--collect changed the gradebook"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROMIUM" ]; then
  flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
         --user-data-dir="$W/chromium-profile" --proxy-server=127.0.0.1:9 --window-size=1100,1500)
  timeout 120 "$CHROMIUM" "${flags[@]}" --screenshot="$W/summary.png" "file://$O/summary.html" >"$W/chromium.log" 2>&1
  timeout 120 "$CHROMIUM" "${flags[@]}" --dump-dom "file://$O/summary.html" >"$W/summary.dom.html" 2>>"$W/chromium.log"
  if python3 "$PARLAB_SOURCE_DIR/tests/e2e/png_check.py" "$W/summary.png" >"$W/png.txt" 2>&1; then
    pass "class page: screenshot is not blank ($(cat "$W/png.txt"))"
  else
    fail "class page: screenshot blank or missing"; tail -n 20 "$W/png.txt" "$W/chromium.log" >&2
  fi
  expect_in "$W/summary.dom.html" 'data-modes="sim"' "rendered page: graded in sim"
  expect_in "$W/summary.dom.html" 'data-not-graded-test="heat_step bandwidth"' "rendered page: the tests not graded there"
  expect_in "$W/summary.dom.html" 'data-not-graded="3"' "rendered page: not-graded counts per test"
  expect_in "$W/summary.dom.html" 'Crashed, timed out or exited wrongly in a test' "rendered page: who crashed"
  expect_in "$W/summary.dom.html" 'out of 68 reachable' "rendered page: out of what"
elif [ "${PARLAB_REQUIRE_CHROMIUM:-0}" = 1 ]; then
  fail "chromium is required (PARLAB_REQUIRE_CHROMIUM=1) but not installed"
else
  echo "note: chromium not installed, the class page was not opened in a browser"
fi
finish
