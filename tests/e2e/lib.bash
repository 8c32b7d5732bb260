# Shared helpers for the end-to-end tests (sourced, not a test itself).
# Environment from CTest: GRADE (the binary), PARLAB_SOURCE_DIR, E2E_WORK (scratch).
set -uo pipefail
: "${GRADE:?}" "${PARLAB_SOURCE_DIR:?}" "${E2E_WORK:?}"
FAKES="$PARLAB_SOURCE_DIR/tests/fakes/lab01"
rm -rf "$E2E_WORK"
mkdir -p "$E2E_WORK"
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

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
    fail "$1: exit $got, expected $2"; sed 's/^/  | /' "$E2E_WORK/$1.out" "$E2E_WORK/$1.err" | tail -40 >&2; fi
}
expect_in() {  # FILE PATTERN (extended regex) WHAT
  # The console wraps long sentences at 100 columns: a phrase may span two lines, so
  # the lines joined (indentation dropped) are searched too.
  if grep -Eq -- "$2" "$1" || sed 's/^ *//' "$1" | tr '\n' ' ' | grep -Eq -- "$2"; then pass "$3"; else
    fail "$3: /$2/ not in $1"; tail -40 "$1" | sed 's/^/  | /' >&2; fi
}
expect_not_in() {
  if grep -Eq -- "$2" "$1"; then fail "$3: /$2/ found in $1"; else pass "$3"; fi
}
# A reference grading: EXPECTED, or 5 (inconclusive) when the grader saw the machine busy
# and said so: a busy machine is never the reference's failure (docs/scoring.md).
expect_rc_or_busy() {  # NAME EXPECTED
  if [ "$(rc_of "$1")" = 5 ] && grep -q "machine busy" "$E2E_WORK/$1.out"; then
    pass "$1 exit 5: inconclusive, machine busy (said so)"
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
finish() {
  if [ "$failures" -eq 0 ]; then echo "all checks passed"; exit 0; fi
  echo "$failures check(s) failed" >&2; exit 1
}
