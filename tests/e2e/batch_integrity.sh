#!/usr/bin/env bash
# `grade batch` records name what they graded (docs/batch.md "What a record names"):
# a roster correction and a resubmission re-grade the right rows and say so; a killed
# --regrade is finished by the next run; unreadable results and temp files of killed
# writers are dealt with; a UTF-8-named zip from Python's zipfile is graded; a child
# grading that fails for the grader's reasons is retried, never the student's fault.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_LOCK_DIR="$W/locks"
C="$W/class"
mkdir -p "$C"
cp -r "$REFERENCE" "$C/anna"    # full correctness marks
cp -r "$FAKES/wrong" "$C/ben"   # fewer
cp -r "$REFERENCE" "$C/cleo"
printf 'folder,id,name\nanna,s1,Anna\nben,s2,Ben\ncleo,s3,Cleo\n' >"$W/roster.csv"
common=(lab01 "$C" --roster "$W/roster.csv" --work-dir "$W/work" "${BATCH_OPTS[@]}" --out "$W/out")
G="$W/out/gradebook.csv"
total_of() { awk -F, -v id="$1" '$2 == id { print $(NF-4) }' "$G"; }  # ...,total,max,flags,reason,sandbox
S="$W/out/students"
# How many students' records (status.json, parsed) carry the regrade token $1.
records_with_token() {
  python3 - "$1" "$S"/*/status.json <<'PY' 2>/dev/null || echo 0
import json, sys
n = 0
for f in sys.argv[2:]:
    try:
        n += json.load(open(f)).get("regrade_token") == sys.argv[1]
    except (OSError, ValueError):
        pass  # being rewritten (renamed into place): not counted this look
print(n)
PY
}

run_grade first batch "${common[@]}" --jobs 2
expect_rc first 0
s1=$(total_of s1); s2=$(total_of s2)
[ "$s1" = 60 ] && [ "$s2" != 60 ] && pass "anna 60, ben $s2" || fail "first scores: s1=$s1 s2=$s2"
expect_field "$S/s1/status.json" graded.submission_hash '[0-9a-f]+' "the record names the submission's hash"
expect_field "$S/s1/status.json" graded.roster_row 'anna,s1,Anna' "the record names its roster row"
expect_field "$S/s1/status.json" graded.lab_hash '[0-9a-f]+' "the record names the lab.toml hash"
expect_field "$S/s1/status.json" graded.grader_hash '[0-9a-f]+' "the record names the grader"

# --- a roster correction: ids of anna and ben swapped ------------------------------
printf 'folder,id,name\nanna,s2,Anna\nben,s1,Ben\ncleo,s3,Cleo\n' >"$W/roster.csv"
run_grade swap batch "${common[@]}"
expect_rc swap 0
expect_field "$W/out/summary.json" last_run.to_grade 2 "a roster swap re-grades the two students"
expect_field "$W/out/summary.json" last_run.regraded_after_change 2 "both because something changed"
expect_field "$S/s1/status.json" regraded_because "its entry is now 'ben' \(was 'anna'\).*" "the record says why"
[ "$(total_of s1)" = "$s2" ] && [ "$(total_of s2)" = "$s1" ] && pass "points follow the submissions" ||
  fail "after the swap: s1=$(total_of s1) s2=$(total_of s2), expected $s2 and $s1"
expect_in "$W/out/summary.md" "Re-graded because something changed" "the summary lists the re-graded"

# --- a resubmission ------------------------------------------------------------------
rm -rf "$C/ben" && cp -r "$REFERENCE" "$C/ben"
run_grade resub batch "${common[@]}"
expect_rc resub 0
expect_field "$W/out/summary.json" last_run.to_grade 1 "a resubmission re-grades only that student"
expect_field "$S/s1/status.json" regraded_because "the submission changed.*" "the record names the resubmission"
[ "$(total_of s1)" = 60 ] && pass "the resubmission's grade is in the gradebook" || fail "s1=$(total_of s1)"
run_grade same batch "${common[@]}"
expect_field "$W/out/summary.json" last_run.to_grade 0 "nothing changed: nothing graded"

# --- unreadable results and killed writers' temp files -------------------------------
echo "{ broken" >"$W/out/students/s3/result.json"
: >"$W/out/students/s3/.status.json.tmp.4242.0"
: >"$W/out/.gradebook.csv.tmp.4242.1"
run_grade unread batch "${common[@]}"
expect_rc unread 0
expect_field "$S/s3/status.json" regraded_because "its saved result does not read back" "an unreadable result is graded again"
[ "$(total_of s3)" = 60 ] && pass "s3 graded again" || fail "s3=$(total_of s3)"
[ -z "$(find "$W/out" -name '*.tmp.4242.*')" ] && pass "temp files of killed writers removed" || fail "temp files left"

# --- a --regrade killed half way is finished by the next plain run -------------------
for i in 1 2 3 4 5; do cp -r "$REFERENCE" "$C/extra$i"; done
run_grade more batch "${common[@]}"
expect_rc more 0
"$GRADE" batch "${common[@]}" --regrade --jobs 1 >"$W/regrade.out" 2>&1 &
pid=$!
for _ in $(seq 1 900); do
  token=$(result_field "$W/out/regrade.json" token 2>/dev/null)
  [ -n "$token" ] && [ "$(records_with_token "$token")" -ge 2 ] && break
  sleep 0.1
done
kill -9 "$pid"; wait "$pid" 2>/dev/null
[ -n "$token" ] && pass "--regrade wrote its marker first" || fail "no regrade.json"
done_before=$(records_with_token "$token")
[ "$done_before" -lt 8 ] && pass "killed part way ($done_before of 8 re-graded)" || fail "regrade finished before the kill"
run_grade after batch "${common[@]}"
expect_rc after 0
expect_field "$W/out/summary.json" last_run.to_grade "$((8 - done_before))" "the next run grades the rest of the regrade"
expect_field "$W/out/summary.json" last_run.resumed_regrade true "it resumed the --regrade, did not start one"
expect_field "$W/out/summary.json" last_run.regraded_after_change 0 "a regrade is no change of the submissions"
# text: a resumed --regrade is logged only (no change of the submission: not in its record)
expect_in "$W/after.err" "the --regrade under way has not graded it yet" "and says why"
[ "$(records_with_token "$token")" = 8 ] &&
  pass "every record is from the regrade" || fail "records from before the regrade kept"
[ ! -e "$W/out/regrade.json" ] && pass "the marker is gone once finished" || fail "regrade.json left"

# --- UTF-8 names from Python's zipfile (the UTF-8 flag set) ---------------------------
python3 - "$REFERENCE" "$C/zoë.zip" <<'PY'
import os, sys, zipfile
ref, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w") as z:
    for f in os.listdir(ref):
        z.write(os.path.join(ref, f), "abgabe-zoë/" + f)
    z.writestr("abgabe-zoë/Notizen-über-π.txt", "ä")
PY
printf 'folder,id,name\nanna,s2,Anna\nben,s1,Ben\ncleo,s3,Cleo\nzoë.zip,s4,Zoë\n' >"$W/roster.csv"
run_grade utf8 batch "${common[@]}"
expect_rc utf8 0
expect_in "$G" '^Zoë,s4,zoë.zip,graded,.*,60,60,' "a UTF-8 zip from Python's zipfile is graded"

# --- infrastructure failures: retried, never the student's --------------------------
PARLAB_TEST_BATCH_INFRA_FAIL="s2:4:1" run_grade infra1 batch "${common[@]}" --only s2
expect_rc infra1 0
expect_field "$S/s2/status.json" attempts 2 "an internal error once: retried and graded"
expect_field "$W/out/summary.json" last_run.retried '\[\{"attempts": 2, "id": "s2", "reasons": \["[^"]*simulated infrastructure failure[^"]*"\]\}\]' "the run records the retry and why"
expect_field "$S/s2/status.json" requested_by "--only" "the record says it was graded because --only named it"
expect_field "$S/s2/status.json" retried_because.0 ".*simulated infrastructure failure.*" "and why its first attempt was repeated"
expect_in "$G" '^Anna,s2,anna,graded,.*,60,60,' "full marks after the retry"
PARLAB_TEST_BATCH_INFRA_FAIL="s2:4:9" run_grade infra2 batch "${common[@]}" --only s2
expect_rc infra2 1
expect_field "$W/out/summary.json" last_run.errors 1 "the run records its grader error"
expect_in "$G" '^Anna,s2,anna,error,.*simulated infrastructure failure.*3 attempts' "failing every attempt: an error row, not the student's"
expect_not_in "$G" '^Anna,s2,anna,(build_failed|graded)' "no points lost to the grader's failure"
# Exit 3 on every attempt: the machine is broken; the batch stops, nobody is blamed.
PARLAB_TEST_BATCH_INFRA_FAIL="s2:3:9" run_grade infra_env batch "${common[@]}" --only s2
expect_rc infra_env 3
expect_in "$G" '^Anna,s2,anna,error,.*status 3' "an environment failure is an error row too"
run_grade infra3 batch "${common[@]}"
expect_rc infra3 0
expect_field "$W/out/summary.json" last_run.to_grade 1 "the next run retries the error row"
expect_in "$G" '^Anna,s2,anna,graded,.*,60,60,' "and grades it"

# --- --no-perf summary does not claim performance tests failed ----------------------
expect_not_in "$W/out/summary.md" '\| performance \| [0-9.]+ \| 0/' "no 0/N for performance tests that did not run"
expect_in "$W/out/summary.md" 'not run \(--no-perf\)' "performance tests: not run"
finish
