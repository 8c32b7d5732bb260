# Shared helpers for the end-to-end tests (sourced, not a test itself).
# Environment from CTest: GRADE (the binary), PARLAB_SOURCE_DIR, E2E_WORK (scratch).
set -uo pipefail
: "${GRADE:?}" "${PARLAB_SOURCE_DIR:?}" "${E2E_WORK:?}"
FAKES="$PARLAB_SOURCE_DIR/tests/fakes/lab01"
rm -rf "$E2E_WORK"
mkdir -p "$E2E_WORK"
failures=0
passes=0

# A passing check is counted, not printed (E2E_VERBOSE=1 prints it): CTest shows a test's
# output only when it failed, and a log that keeps only the head of that output must
# still show the failing checks, not the page of passing ones before them.
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() {
  passes=$((passes + 1))
  if [ "${E2E_VERBOSE:-0}" = 1 ]; then echo "ok: $*"; fi
  return 0
}

# run_grade NAME ARGS...: runs grade, keeps stdout/stderr/exit code under $E2E_WORK/NAME.
run_grade() {
  local name=$1; shift
  "$GRADE" "$@" >"$E2E_WORK/$name.out" 2>"$E2E_WORK/$name.err"
  echo $? >"$E2E_WORK/$name.rc"
}
rc_of() { cat "$E2E_WORK/$1.rc"; }

expect_rc() {  # NAME EXPECTED
  local got; got=$(rc_of "$1")
  if [ "$got" = "$2" ]; then pass "$1 exit $2"; else
    fail "$1: exit $got, expected $2"; not_passed_details "$E2E_WORK/$1.out" >&2
    sed 's/^/  | /' "$E2E_WORK/$1.out" "$E2E_WORK/$1.err" | tail -40 >&2; fi
}
# The report's detail lines of every test not passed, first: a CI log that keeps only
# the head of a failure still shows why (the whole report follows).
not_passed_details() {  # REPORT
  awk '/^[^ ].*: (failed|partial|skipped|inconclusive|error)/ {n = 8}
       n > 0 {print "  ! " $0; n--}' "$1"
}
expect_in() {  # FILE PATTERN (extended regex) WHAT
  # The console wraps long sentences at 100 columns: a phrase may span two lines, so
  # the lines joined (indentation dropped) are searched too.
  # The joined text's grep reads all its input (no -q): with pipefail, tr dying of SIGPIPE
  # after an early match would fail the pipe and report a phrase that is there as missing.
  if grep -Eq -- "$2" "$1" || sed 's/^ *//' "$1" | tr '\n' ' ' | grep -E -- "$2" >/dev/null; then pass "$3"; else
    fail "$3: /$2/ not in $1"; tail -40 "$1" | sed 's/^/  | /' >&2; fi
}
expect_not_in() {
  if grep -Eq -- "$2" "$1"; then fail "$3: /$2/ found in $1"; else pass "$3"; fi
}
# A reference grading: EXPECTED, or 5 (inconclusive) when the grader could not judge a
# speed test here and said why (the machine busy, ratios too noisy, the reference's own
# gain too small): never the reference's failure (docs/scoring.md).
expect_rc_or_busy() {  # NAME EXPECTED
  local cause
  # The console wraps its total line: read it as one line.
  cause=$(tr '\n' ' ' <"$E2E_WORK/$1.out" | tr -s ' ' | grep -Eo "points inconclusive \([^)]*\)" | head -1)
  if [ "$(rc_of "$1")" = 5 ] && [ -n "$cause" ]; then
    pass "$1 exit 5: $cause (said so)"
  else
    expect_rc "$1" "$2"
  fi
}
# JSON field check without jq: "key": value as written by the JSON reporter.
expect_json() {  # FILE KEY VALUE-REGEX
  expect_in "$1" "\"$2\": $3" "$1 has $2 = $3"
}
# A test's status in a result.json, by its full name (the console shortens long names).
expect_status() {  # FILE TEST_NAME STATUS-REGEX WHAT
  local got
  got=$(python3 - "$1" "$2" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1])).get("tests", [])
print(next((t["status"] for t in tests if t.get("name") == sys.argv[2]), "(no such test)"))
PY
)
  if [[ "$got" =~ ^($3)$ ]]; then pass "$4"; else fail "$4: test '$2' is $got in $1, expected $3"; fi
}
# Assertions on the parsed result.json (tests/e2e/result_field.py), not on its layout
# or on console wording: only the console tests match console text.
# A report is read once per version (one python start, `result_field.py --flat`) into
# _RF, keyed by the file's identity (a rewritten report is a new inode: renamed into
# place) and the keys joined by \x1d.
declare -A _RF=()
_rf_prefix() {  # REPORT: loads it if need be; sets _RF_AT to its entries' prefix
  _RF_AT="$1"$'\x1c'$(stat -c '%i %s %y' -- "$1" 2>/dev/null)$'\x1c'
  [ -n "${_RF[${_RF_AT}loaded]+x}" ] && return 0
  local k v
  while IFS=$'\x1f' read -r -d $'\x1e' k v; do _RF["$_RF_AT$k"]=$v; done \
    < <(python3 "$PARLAB_SOURCE_DIR/tests/e2e/result_field.py" --flat "$1" 2>/dev/null)
  _RF["${_RF_AT}loaded"]=1
}
result_field() {  # REPORT KEY...: one field (result_field.py says why when there is none)
  local report=$1 key; shift
  _rf_prefix "$report"
  key=$(IFS=$'\x1d'; echo "$*")
  if [ -n "${_RF[$_RF_AT$key]+x}" ]; then printf '%s\n' "${_RF[$_RF_AT$key]}"
  else python3 "$PARLAB_SOURCE_DIR/tests/e2e/result_field.py" "$report" "$@"; fi
}
expect_test() {  # REPORT TEST_NAME FIELD VALUE-REGEX [WHAT]: the whole value matches (FIELD may be dotted: measurement.counter.value)
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local got keys; IFS=. read -ra keys <<<"$3"
  got=$(result_field "$1" tests "$2" "${keys[@]}" 2>&1)
  if [[ "$got" =~ ^($4)$ ]]; then pass "${5:-$2: $3 is $got}"; else
    fail "${5:-$2: $3}: '$2' has $3 = '$got' in $1, expected /$4/"; fi
}
expect_test_at_most() {  # REPORT TEST_NAME FIELD OTHER_REPORT [WHAT]: the test's FIELD (a number) is no more than the same test's in OTHER_REPORT
  _rf_prefix "$1"; _rf_prefix "$4"  # loaded here: a $(...) below could not keep them
  local keys mine theirs; IFS=. read -ra keys <<<"$3"
  mine=$(result_field "$1" tests "$2" "${keys[@]}" 2>&1)
  theirs=$(result_field "$4" tests "$2" "${keys[@]}" 2>&1)
  if awk -v a="$mine" -v b="$theirs" 'BEGIN { exit !(a ~ /^[0-9.e+-]+$/ && b ~ /^[0-9.e+-]+$/ && a + 0 <= b + 0) }'; then
    pass "${5:-$2: $3 $mine <= $theirs}"
  else fail "${5:-$2: $3}: '$2' has $3 = '$mine' in $1, more than (or not a number beside) '$theirs' in $4"; fi
}
expect_test_says() {  # REPORT TEST_NAME REGEX [WHAT]: the test's message contains REGEX
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local got; got=$(result_field "$1" tests "$2" message 2>&1)
  if grep -Eq -- "$3" <<<"$got" || tr '\n' ' ' <<<"$got" | grep -E -- "$3" >/dev/null; then pass "${4:-$2 says /$3/}"; else
    fail "${4:-$2 says /$3/}: not in the message of '$2' in $1:"; sed 's/^/  | /' <<<"$got" | tail -20 >&2; fi
}
expect_scored() {  # REPORT TEST_NAME "STATUS POINTS MAX" [WHAT]: one test's verdict and points
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local want_status want_points want_max status points max
  read -r want_status want_points want_max <<<"$3"
  status=$(result_field "$1" tests "$2" status 2>&1) || { fail "${4:-$2}: $status"; return; }
  points=$(result_field "$1" tests "$2" points 2>&1)
  max=$(result_field "$1" tests "$2" max_points 2>&1)
  if [ "$status" = "$want_status" ] && awk -v a="$points" -v b="$want_points" -v c="$max" -v d="$want_max" \
       'BEGIN { exit !(a ~ /^[0-9.e+-]+$/ && c ~ /^[0-9.e+-]+$/ && a == b + 0 && c == d + 0) }'
  then pass "${4:-$2: $3}"; else fail "${4:-$2}: '$2' is '$status $points $max' in $1, expected '$3'"; fi
}
expect_score() {  # REPORT SCORE MAX [WHAT]: score and max_score, as numbers
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local score max; score=$(result_field "$1" score 2>&1); max=$(result_field "$1" max_score 2>&1)
  if awk -v a="$score" -v b="$max" -v c="$2" -v d="$3" 'BEGIN { exit !(a == c + 0 && b == d + 0 && a ~ /^[0-9.e+-]+$/) }'
  then pass "${4:-score $2 / $3}"; else fail "${4:-score $2 / $3}: $1 has score $score / $max"; fi
}
expect_field() {  # REPORT DOTTED.KEY VALUE-REGEX [WHAT]: a field outside the tests, e.g. build.ok
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local keys got; IFS=. read -ra keys <<<"$2"
  got=$(result_field "$1" "${keys[@]}" 2>&1)
  if [[ "$got" =~ ^($3)$ ]]; then pass "${4:-$2 is $got}"; else fail "${4:-$2}: $1 has $2 = '$got', expected /$3/"; fi
}
# The names of REPORT's tests whose FIELD (status, outcome, ...) matches VALUE-REGEX.
tests_where() {  # REPORT FIELD VALUE-REGEX
  local names name hits=()
  _rf_prefix "$1"
  IFS=$'\x1d' read -ra names <<<"${_RF[${_RF_AT}*names]-}"
  for name in "${names[@]}"; do
    [[ "${_RF[$_RF_AT"tests"$'\x1d'"$name"$'\x1d'"$2"]-}" =~ ^($3)$ ]] && hits+=("$name")
  done
  (IFS=';'; echo "${hits[*]}")
}
expect_no_test() {  # REPORT STATUS-REGEX WHAT: no test has such a status
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local hit; hit=$(tests_where "$1" status "$2" 2>&1)
  if [ -z "$hit" ]; then pass "$3"; else fail "$3: in $1: $hit"; fi
}
expect_some_test() {  # REPORT FIELD VALUE-REGEX WHAT: at least one test's FIELD matches
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local hit; hit=$(tests_where "$1" "$2" "$3" 2>&1)
  if [ -n "$hit" ]; then pass "$4"; else fail "$4: no test of $1 has $2 /$3/ $hit"; fi
}
# Some (or no) test message or note of REPORT contains REGEX.
expect_message() {  # REPORT REGEX WHAT
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local all; all=$(result_field "$1" '*message')
  if grep -Eq -- "$2" <<<"$all" || tr '\n' ' ' <<<"$all" | grep -E -- "$2" >/dev/null; then pass "$3"; else fail "$3: /$2/ in no message of $1"; fi
}
expect_no_message() {  # REPORT REGEX WHAT
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local hit; hit=$(result_field "$1" '*message' | grep -E -m1 -- "$2")
  if [ -z "$hit" ]; then pass "$3"; else fail "$3: /$2/ in a message of $1: $hit"; fi
}
# The same for what the submission printed (every test's stdout_tail and stderr_tail).
expect_output() {  # REPORT REGEX WHAT
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local all; all=$(result_field "$1" '*output')
  if grep -Eq -- "$2" <<<"$all"; then pass "$3"; else fail "$3: /$2/ in no test output of $1"; fi
}
expect_no_output() {  # REPORT REGEX WHAT
  _rf_prefix "$1"  # loaded here: a $(...) below could not keep it
  local hit; hit=$(result_field "$1" '*output' | grep -E -m1 -- "$2")
  if [ -z "$hit" ]; then pass "$3"; else fail "$3: /$2/ in a test output of $1: $hit"; fi
}
# fake_submission LAB FAKE: the fake tests/fakes/FAKE(.patch) made from the current
# reference by tests/fakes/make_fake.sh, in $E2E_WORK/fakes/FAKE; sets FAKE_DIR to it.
# A patch that no longer applies ends the test at once, naming the fake.
fake_submission() {
  FAKE_DIR="$E2E_WORK/fakes/$2"
  rm -rf "$FAKE_DIR"
  bash "$PARLAB_SOURCE_DIR/tests/fakes/make_fake.sh" "$1" "$2" "$FAKE_DIR" ||
    { echo "FAIL: fake $2 of $1 could not be made (above)" >&2; exit 1; }
}
# fake_result NAME LAB SUBMISSION MODE: the one grading of a line of the fake table
# (tests/fakes/gradings.tsv, or tests/agreement/verdicts.tsv with MODE --no-perf), made
# by the CTest fixture "e2e: fake gradings" (tests/fakes/grade_table.sh) under
# $FAKE_RESULTS, as if run_grade NAME had graded it: $E2E_WORK/NAME.json, .out, .err,
# .rc; sets FAKE_DIR to the submission as graded. No such grading ends the test at once.
FAKE_RESULTS=${FAKE_RESULTS:-$(dirname "$GRADE")/tests/fake-results}
source "$PARLAB_SOURCE_DIR/tests/fakes/fake_results.bash"
fake_result() {
  local dir; dir=$(fake_result_dir "$FAKE_RESULTS" "$2" "$3" "$4")
  if [ -e "$dir/nofake" ]; then
    echo "FAIL: fake $3 of $2 could not be made:" >&2; sed 's/^/  | /' "$dir/nofake" >&2; exit 1
  fi
  [ -e "$dir/rc" ] || { echo "FAIL: no grading of $2 $3 ($4) in $dir: is the line in" \
    "tests/fakes/gradings.tsv, and did the fixture run (ctest -R 'fake gradings', or" \
    "bash tests/fakes/grade_table.sh GRADE $FAKE_RESULTS)?" >&2; exit 1; }
  cp "$dir/rc" "$E2E_WORK/$1.rc"
  cp "$dir/stdout" "$E2E_WORK/$1.out"
  cp "$dir/stderr" "$E2E_WORK/$1.err"
  rm -f "$E2E_WORK/$1.json"
  [ ! -e "$dir/result.json" ] || cp "$dir/result.json" "$E2E_WORK/$1.json"
  FAKE_DIR="$dir/submission"
}
# reference_with LAB DIR [FILE...]: DIR holds the lab's reference submission (its
# sources and device headers) with FILEs copied over them.
reference_with() {
  local lab=$1 dir=$2; shift 2
  rm -rf "$dir"
  bash "$PARLAB_SOURCE_DIR/tests/fakes/make_fake.sh" "$lab" reference "$dir" ||
    { echo "FAIL: the reference of $lab could not be copied (above)" >&2; exit 1; }
  [ $# -eq 0 ] || cp "$@" "$dir/"
}
# line_of FILE REGEX: the number of the first line of FILE matching REGEX (a generated
# fake's lines move with the reference, so tests look them up instead of writing them).
line_of() {
  local n; n=$(grep -nE -m1 -- "$2" "$1" | cut -d: -f1)
  [ -n "$n" ] || { echo "FAIL: /$2/ not in $1" >&2; exit 1; }
  echo "$n"
}
finish() {
  if [ "$failures" -eq 0 ]; then echo "all $passes checks passed"; exit 0; fi
  echo "$failures check(s) failed, $passes passed (E2E_VERBOSE=1 lists the passing ones)"; exit 1
}
