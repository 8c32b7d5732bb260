#!/usr/bin/env bash
# lab06 without a GPU (simulation backend): the reference passes every correctness
# test, the performance tests are skipped and the banner says overlap cannot be shown;
# the skeleton scores 0 with "never written"; a pipeline that forgets the short last
# chunk fails the tests whose chunk does not divide n, with the range and the hint.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

fake_result ref lab06 reference -  # the fake table's grading
expect_rc ref 0
expect_field "$W/ref.json" score 60 "reference gets every correctness point in sim"
expect_no_test "$W/ref.json" failed "no reference test fails"
expect_status "$W/ref.json" "pipeline overlaps copies with kernels" "skipped|not_graded" "overlap is not measured in sim"
expect_message "$W/ref.json" "streams run one after the other, so overlap cannot be shown" "the banner says why"

run_grade list list
# text: grade list writes no report; its console table is what it gives
expect_in "$W/list.out" "lab06 +gpu +cpp +100 +Streams, asynchronous copies and pinned memory" "grade list shows lab06"

run_grade skel lab06 --device sim --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" score 0 "the skeleton scores 0"
expect_message "$W/skel.json" "never written \\(outputs are poisoned with NaN" "unwritten outputs explained"

LAST_SHORT="pipeline: 4 streams, 8 chunks, last chunk short"
fake_result chunk lab06 lab06/drops_last_chunk --no-perf  # the fake table's grading
expect_rc chunk 1
expect_test "$W/chunk.json" "$LAST_SHORT" status failed "a lost last chunk fails"
expect_test_says "$W/chunk.json" "$LAST_SHORT" "[Ee]lements 8757..10006 \\(1250, one contiguous block\\) were never written" \
  "the unwritten range is named"
expect_test_says "$W/chunk.json" "$LAST_SHORT" "Hint: these results never reached host_out" "with the hint"
expect_test "$W/chunk.json" "pipeline: one element per chunk" status passed "chunks that divide n pass"
expect_test "$W/chunk.json" "round trip, pinned buffers" status passed "the round trip passes"
finish
