#!/usr/bin/env bash
# What a submission's process leaves behind cannot hang, fool or crash the grader:
# a FIFO in place of status.json, an output folder that is a symbolic link. And a
# grading stopped by SIGINT still leaves its partial --json result.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

# A FIFO: without the non-blocking reader this grading never ends.
timeout 300 "$GRADE" lab01 "$FAKES/fifo_status" --no-perf --work-dir "$W/work" \
  --json "$W/fifo.json" >"$W/fifo.out" 2>"$W/fifo.err"
echo $? >"$W/fifo.rc"
expect_rc fifo 1
expect_message "$W/fifo.json" "FIFO" "the FIFO is named in the report"
expect_some_test "$W/fifo.json" outcome nonzero_exit "the FIFO run ends as a nonzero exit"

timeout 300 "$GRADE" lab01 "$FAKES/linked_out" --no-perf --work-dir "$W/work" \
  --json "$W/linked.json" >"$W/linked.out" 2>"$W/linked.err"
echo $? >"$W/linked.rc"
expect_rc linked 1
expect_some_test "$W/linked.json" outcome bad_output "the linked output folder is refused"
expect_message "$W/linked.json" "symbolic link" "the linked output folder is refused, and said so"
expect_no_test "$W/linked.json" passed "no test passes through the link"

# SIGINT in the middle of the performance tests: a partial result with what was done.
"$GRADE" lab01 --reference -v --work-dir "$W/work" --json "$W/partial.json" \
  >"$W/partial.out" 2>"$W/partial.err" &
pid=$!
for _ in $(seq 1 600); do
  # text: waits for the progress line on stderr (no report exists yet)
  grep -q "measuring" "$W/partial.err" 2>/dev/null && break
  sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"
echo $? >"$W/partial.rc"
expect_rc partial 130
# text: said on stderr only (the report cannot say it was written)
expect_in "$W/partial.err" "partial result written" "grade says it wrote the partial result"
expect_field "$W/partial.json" interrupted "interrupted by.*" "the partial result says it was interrupted"
expect_test "$W/partial.json" "serial statistics" status passed "the partial result holds the finished tests"
# Its run area (a tmpfs when root) went with it: mounted in its own mount namespace.
leaked=$(grep -c " $W/" /proc/mounts)
[ "$leaked" -eq 0 ] && pass "no mount outlives the stopped grading" || fail "$leaked mounts left under $W"
# No run folder of the stopped grading survives its next grading of the same folder.
"$GRADE" lab01 --reference --no-perf --work-dir "$W/work" >"$W/again.out" 2>&1
left=$(find "$W/work" -path '*/gradings/g-*' -maxdepth 4 -type d | wc -l)
[ "$left" -eq 0 ] && pass "abandoned run folders swept" || fail "$left run folders left behind"
finish
