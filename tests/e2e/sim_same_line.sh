#!/usr/bin/env bash
# One rule turns a code address into the student's line, wherever the finding comes from
# (docs/simulation.md, "Where code addresses become lines"): a fault named by the grader
# after the run, a data race named by the runtime from the code places table, and the
# speed hints (divergence, bank conflicts) judged and named by the grader. A statement in
# a helper of the student's own header, inlined into the kernel, is one frame: each of
# them names that helper's line, never the kernel's call site or the rewritten copy.
#   - lab04/same_line_helper: the racy count in bump.cuh:4, odd keys taking a longer path:
#     the race, the divergence and the bank conflicts all at bump.cuh:4;
#   - lab04/same_line_fault: the same with one wild index: the fault at bump.cuh:4 too;
#   - lab04/histogram_race: the plain ++ in the kernel itself, race and bank conflicts at
#     one line of histogram.cu.
# Every grading is the fake-gradings fixture's (fake_result).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
HIST="histogram: prime size, 256 bins"
PLACE="bump.cuh:4"

fake_result helper lab04 lab04/same_line_helper --no-perf
expect_status "$W/helper.json" "$HIST" failed "the helper's race fails the test"
expect_test_says "$W/helper.json" "$HIST" "data race on .local. between $PLACE and $PLACE" "the race: $PLACE"
expect_test_says "$W/helper.json" "$HIST" "warp divergence in kernel histogram_kernel at $PLACE" \
  "the divergence hint: $PLACE"
expect_test_says "$W/helper.json" "$HIST" "shared-memory bank conflicts at $PLACE" "the bank-conflict hint: $PLACE"

fake_result fault lab04 lab04/same_line_fault --no-perf
expect_status "$W/fault.json" "$HIST" failed "the wild index fails the test"
expect_test_says "$W/fault.json" "$HIST" "invalid device memory access in a kernel at $PLACE" "the fault: $PLACE"
expect_test_says "$W/fault.json" "$HIST" "data race on .local. between $PLACE and $PLACE" \
  "the race seen before the fault: $PLACE"

fake_result race lab04 lab04/histogram_race --no-perf
race_line=$(result_field "$W/race.json" tests "$HIST" message | grep -oE "data race on .local. between histogram\.cu:[0-9]+" |
            head -1 | grep -oE "[0-9]+$")
[ -n "$race_line" ] && pass "the kernel's own race is named (histogram.cu:$race_line)" ||
  fail "no race named in histogram.cu for lab04/histogram_race"
expect_test_says "$W/race.json" "$HIST" "shared-memory bank conflicts at histogram\.cu:$race_line\b" \
  "the bank-conflict hint names the race's line, histogram.cu:$race_line"
finish
