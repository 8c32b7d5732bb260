#!/usr/bin/env bash
# Tolerances no shortcut fits (docs/scoring.md): the reference of lab02..lab06 with every
# function's output overwritten by a shortcut answer (tests/fakes/shortcuts/: all zeros,
# the constant 1, NaN, a copy of the first input, the honest output rounded to half
# precision), graded in sim with --no-perf by the fake table's fixture. Every correctness
# test each fake touches fails (all of them; lab04's fp16 fake touches only the float
# sum: its max and histogram are ints, exact in any precision), and the reference
# passes every one on the same datasets. The exception: a test where the shortcut's
# answer is the expected answer itself, value for value (no comparison can fail it):
# those are listed in EXACT below and must pass, so that the list stays true.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

# The shortcut answers that are the answer: the first input's copy where the output is
# that input (one training point: its y; one element: its value; a grid of one row: all
# boundary, which a step copies; the maximum placed first on purpose, in values[0]).
declare -A EXACT=(
  [lab02_copy]="predict_serial: 1 training point, 1 query;predict_gpu: 1 training point, 1 query"
  [lab03_copy]="heat_step, one row (boundary only)"
  [lab04_copy]="max_atomic: one element;max_block: one element;max_block: 300007 elements, max first;sum: one element"
)

# Left to chance, so asserted neither way: a test on fresh data (new values each grading)
# whose output is one number. fp16 rounding of lab04's sum is off by up to 2.4e-4 of the
# value, and a fresh sum lands within the test's rtol (2e-5) about one grading in ten;
# the four sum tests on fixed data fail it every time, so the fake never keeps the task's
# points.
declare -A CHANCE=(
  [lab04_fp16]="hidden fresh data: sum"
)

# tests_not_failed REPORT LAB_TOML EXCEPT [TASK...]: the correctness tests (of these
# tasks, or all; not those named in EXCEPT, ';'-separated) whose status in REPORT is not
# "failed", one "name: status" per line.
tests_not_failed() {
  python3 - "$@" <<'PY'
import json, sys, tomllib
report, spec, tasks = sys.argv[1], sys.argv[2], set(sys.argv[4:])
exact = set(filter(None, sys.argv[3].split(";")))
status = {t["name"]: t.get("status") for t in json.load(open(report)).get("tests", [])}
for test in tomllib.load(open(spec, "rb")).get("tests", []):
    if test.get("kind") != "correctness":
        continue
    mine = {test["task"]} if "task" in test else set(test.get("tasks", []))
    if (tasks and not mine & tasks) or test["name"] in exact:
        continue
    if status.get(test["name"]) != "failed":
        print(f"{test['name']}: {status.get(test['name'], 'absent')}")
PY
}

for lab in lab02 lab03 lab04 lab05 lab06; do
  spec=$(ls "$PARLAB_SOURCE_DIR"/labs/"$lab"-*/lab.toml)
  fake_result "${lab}_ref" "$lab" reference --no-perf  # the agreement table's grading
  expect_no_test "$W/${lab}_ref.json" 'failed|error|skipped' "$lab: the reference passes every test"
  for shortcut in zeros constant nan copy fp16; do
    name=${lab}_$shortcut
    fake_result "$name" "$lab" "shortcuts/$name" --no-perf
    [ -s "$W/$name.json" ] || { fail "$name: no result.json (exit $(cat "$W/$name.rc"))"; continue; }
    expect_field "$W/$name.json" build.ok true "$name: the fake builds"
    tasks=()
    [ "$name" != lab04_fp16 ] || tasks=(sum)
    left=$(tests_not_failed "$W/$name.json" "$spec" "${EXACT[$name]-};${CHANCE[$name]-}" "${tasks[@]}")
    if [ -z "$left" ]; then
      pass "$name: every test it touches fails"
    else
      fail "$name: tests that did not fail: $(echo "$left" | paste -sd ';')"
    fi
    IFS=';' read -ra exact <<<"${EXACT[$name]-}"
    for test in "${exact[@]}"; do
      expect_test "$W/$name.json" "$test" status passed "$name: '$test' passes (the answer itself)"
    done
  done
done
finish
