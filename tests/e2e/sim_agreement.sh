#!/usr/bin/env bash
# The agreement table: every reference and fake of lab02..lab06 graded in sim
# (--no-perf) must give the correctness verdict tests/agreement/verdicts.tsv expects;
# tests/gpu/check_agreement.sh checks the same table on a GPU. The gradings are the
# fake-gradings fixture's (tests/fakes/grade_table.sh, once per suite run, shared with
# the other sim checks): this script reads their verdicts.
source "$(dirname "$0")/lib.bash"
if AGREEMENT_RESULTS="$FAKE_RESULTS" bash "$PARLAB_SOURCE_DIR/tests/agreement/check_agreement.sh" "$GRADE" sim "$E2E_WORK"; then
  pass "every line of verdicts.tsv agrees in sim"
else
  fail "verdicts.tsv: disagreements in sim (above)"
fi
finish
