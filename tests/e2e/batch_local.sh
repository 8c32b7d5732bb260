#!/usr/bin/env bash
# `grade batch` on one machine: a 20-submission class with every kind of bad input
# gets one row each with the reason, nothing is written outside the work dirs, a
# re-run skips finished students, kill -9 mid-batch and a re-run finish the rest with
# no duplicate and no missing row, and derived files rebuild with --collect.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_LOCK_DIR="$W/locks"
make_class "$W/class" "$W/t"
common=(lab01 "$W/class" --roster "$W/t/roster.csv" --work-dir "$W/work" "${BATCH_OPTS[@]}")

# --- one full batch ---------------------------------------------------------------
run_grade full batch "${common[@]}" --out "$W/out" --jobs 2
expect_rc full 0
G="$W/out/gradebook.csv"
if diff <(expected_statuses) <(gradebook_statuses "$G") >"$W/status.diff"; then
  pass "one row per student with the expected status"
else
  fail "gradebook statuses differ from the expected ones"; sed 's/^/  | /' "$W/status.diff" >&2
fi
[ "$(awk 'NR > 1' "$G" | wc -l)" = 21 ] && pass "21 rows (20 submissions + 1 missing)" || fail "row count"
expect_in "$G" '^"Liddell, Alice",s001,ref_folder,graded,cpp,5,5,10,5,5,5,5,5,15,not graded,not graded,60,60,no-perf,,bubblewrap \(require\)$' "reference folder: all correctness points"
expect_in "$G" '^,ref_zip,ref_zip.zip,graded,.*,60,60,' "zipped folder graded like a folder"
expect_in "$G" '^,crash,crash.tar,graded,.*crashed' "crash flagged"
expect_in "$G" '^,noncompiling_1,.*did not compile: file_stats.cpp:[0-9]+' "build failure with the first error"
expect_in "$G" '^,corrupt,.*not a valid archive' "corrupt zip: reason"
expect_in "$G" '^,truncated,.*not a valid archive' "truncated tar.gz: reason"
expect_in "$G" "^,dotdot,.*climbs out of the submission with '..'" "../ entry: reason"
expect_in "$G" '^,absolute,.*absolute path' "absolute entry: reason"
expect_in "$G" "^,symlink_out,.*symlink 'file_stats.cpp' points outside" "symlink out: reason"
expect_in "$G" '^,too_big,.*unpacks to more than 2 MiB' "size cap: reason"
expect_in "$G" '^,wrong_format,.*unsupported archive format' "rar: reason"
expect_in "$G" '^,empty,.*archive is empty' "empty tar: reason"
expect_in "$G" '^,macos,macos.zip,graded,' "__MACOSX litter skipped"
expect_in "$G" '^Zoe,s999,,missing,' "roster student without submission"
expect_field "$W/out/summary.json" ignored_files '\["README\.txt"\]' "README ignored"
# Nothing escaped: the hostile entries' file (a name unique to this run) is nowhere
# they could have put it (batch_lib.bash escaped_files).
escaped=$(escaped_files "$W")
[ -z "$escaped" ] && pass "nothing written outside" || fail "a hostile archive wrote outside its folder: $escaped"
for f in result.json report.md gradescope/results.json status.json; do
  [ -s "$W/out/students/s001/$f" ] && pass "per-student $f" || fail "missing students/s001/$f"
done
expect_in "$W/out/students/dotdot/report.md" "rejected" "rejected student's report says why"
expect_in "$W/out/summary.md" "## Did not build" "summary lists build failures"
expect_field "$W/out/summary.json" counts.rejected 8 "summary counts rejected"
expect_field "$W/out/reference-check.json" reference_mode true "reference checked once"

# --- re-run: nothing to do, same gradebook ------------------------------------------
cp "$G" "$W/first.csv"
run_grade rerun batch "${common[@]}" --out "$W/out"
expect_rc rerun 0
expect_field "$W/out/summary.json" last_run.to_grade 0 "re-run skips finished students"
expect_field "$W/out/summary.json" last_run.submissions 20 "and says how many it found"
diff -q "$W/first.csv" "$G" >/dev/null && pass "re-run: same gradebook" || fail "re-run changed the gradebook"
run_grade only batch "${common[@]}" --out "$W/out" --only skel_a
expect_rc only 0
expect_field "$W/out/summary.json" last_run.to_grade 1 "--only regrades one student"
expect_field "$W/out/summary.json" last_run.only '\["skel_a"\]' "the run names its --only id"
rm "$G"
run_grade collect batch --collect "$W/out"
expect_rc collect 0
diff -q "$W/first.csv" "$G" >/dev/null && pass "--collect rebuilds the same gradebook" || fail "--collect differs"

# --- kill -9 in the middle, then finish -------------------------------------------
"$GRADE" batch "${common[@]}" --out "$W/out2" --jobs 2 >"$W/killed.out" 2>&1 &
batch_pid=$!
for _ in $(seq 1 600); do
  n=$(ls "$W"/out2/students/*/status.json 2>/dev/null | wc -l)
  [ "$n" -ge 8 ] && break
  sleep 0.1
done
run_grade busy batch "${common[@]}" --out "$W/out2"
expect_rc busy 2
# text: a refused batch writes no report, only this error
expect_in "$W/busy.err" "another grade batch is writing to" "a second batch on the same folder is refused"
kill -9 "$batch_pid"; wait "$batch_pid" 2>/dev/null
sleep 1
if pgrep -f -- "--work-dir $W/work" >/dev/null; then fail "gradings outlived the killed batch"; else pass "children died with the batch"; fi
done_before=$(ls "$W"/out2/students/*/status.json 2>/dev/null | wc -l)
[ "$done_before" -lt 20 ] && pass "killed part way ($done_before finished)" || fail "batch finished before the kill"
run_grade resume batch "${common[@]}" --out "$W/out2" --jobs 2
expect_rc resume 0
expect_field "$W/out2/summary.json" last_run.to_grade "$((20 - done_before))" "resume grades only the rest"
expect_field "$W/out2/summary.json" last_run.jobs 2 "with the jobs asked for"
expect_field "$W/out2/summary.json" last_run.regrade false "a resume, not a --regrade"
diff "$W/first.csv" "$W/out2/gradebook.csv" >"$W/kill.diff" && pass "after kill -9 + resume: same gradebook, no duplicate or missing row" ||
  { fail "gradebook after kill -9 differs"; sed 's/^/  | /' "$W/kill.diff" >&2; }

# --- usage errors --------------------------------------------------------------------
run_grade noout batch lab01 "$W/class"
expect_rc noout 2
# text: a usage error, printed before any report exists
expect_in "$W/noout.err" "needs --out" "missing --out named"
run_grade noclass batch lab01 "$W/nope" --out "$W/o3" --work-dir "$W/work"
expect_rc noclass 2
# text: a usage error, printed before any report exists
expect_in "$W/noclass.err" "class folder not found" "missing class folder named"
run_grade badonly batch "${common[@]}" --out "$W/out" --only nobody
expect_rc badonly 2
# text: a usage error, printed before any report exists
expect_in "$W/badonly.err" "--only nobody: no submission has this id" "unknown --only id named"
finish
