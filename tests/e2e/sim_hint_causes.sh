#!/usr/bin/env bash
# Hints fire on their cause (issue 30, "Hints that blame the wrong cause"): submissions
# with one bug each (tests/fakes/hint_causes/, made from the reference here), graded in
# the simulator; the failed test's message names the cause, and the hint of the cause
# it used to be blamed on is absent.
#   - lab02 GPU results left in a scratch buffer: the GPU hint (copy into out), not the
#     CPU workers' split hint;
#   - lab02 GPU tile with an unloaded shared element: NaN from shared memory, not
#     "never written" nor 0/0;
#   - lab03 heat_solve without its final copy: a step behind, not "off by rounding";
#   - lab05 tile loads without the zero padding: NaN from shared memory, not
#     "never written" with the grid-coverage hint.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
MAKE="$PARLAB_SOURCE_DIR/tests/fakes/hint_causes/make_submission.sh"

# message_of NAME "TEST NAME": the message of that test in NAME's JSON result.
message_of() {
  python3 - "$W/$1.json" "$2" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    if t["name"] == sys.argv[2]:
        print(t.get("message", ""))
PY
}
# expect_message NAME "TEST NAME" REGEX WHAT / expect_no_message ...: the test's message
# matches REGEX (or does not).
expect_message() {
  if message_of "$1" "$2" | grep -Eq -- "$3"; then pass "$4"; else
    fail "$4: /$3/ not in the message of '$2': $(message_of "$1" "$2" | head -c 600)"; fi
}
expect_no_message() {
  if message_of "$1" "$2" | grep -Eq -- "$3"; then
    fail "$4: /$3/ in the message of '$2': $(message_of "$1" "$2" | head -c 600)"; else pass "$4"; fi
}
grade_fake() {  # NAME LAB KIND
  bash "$MAKE" "$3" "$W/$3" || fail "$3: the fake could not be made"
  run_grade "$1" "$2" "$W/$3" --device sim --no-perf --work-dir "$W/work" --json "$W/$1.json"
  expect_rc "$1" 1
}

grade_fake scratch lab02 lab02_gpu_scratch_uncopied
T="predict_gpu: 2000 x 500"
expect_message scratch "$T" "Hint: these predictions never reached out.*copy it into out" "lab02 GPU: the GPU task's hint names the missing copy"
expect_no_message scratch "$T" "split the m queries|worker w" "lab02 GPU: no CPU-worker hint"
expect_status "$W/scratch.json" "predict_parallel: 2000 x 500, all cores" passed "lab02 scratch: the CPU tests pass"

grade_fake tile lab02 lab02_gpu_tile_off_by_one
expect_message tile "$T" "NaN computed from shared memory never stored to" "lab02 GPU: NaN from an unloaded tile is said so"
expect_message tile "$T" "Hint: a training point was read from shared memory before it was loaded" "lab02 GPU: with the unloaded-tile hint"
expect_no_message tile "$T" "never written|split the m queries|0/0" "lab02 GPU: not 'never written', no worker or 0/0 hint"

grade_fake solve lab03 lab03_solve_final_copy_missing
T="heat_solve, to a tolerance"
expect_message solve "$T" "Hint: close, but a float solver's rounding stays far inside the tolerance: is out a step behind\?" "lab03 heat_solve: a grid left in work is a step behind"
expect_no_message solve "$T" "off by rounding only" "lab03 heat_solve: not 'off by rounding only'"
expect_status "$W/solve.json" "heat_step, 257 x 129" passed "lab03: heat_step itself passes"

grade_fake pad lab05 lab05_tile_not_zero_padded
T="tiled: 1 x 1 x 1"
expect_message pad "$T" "NaN computed from shared memory never stored to" "lab05: NaN from an unpadded tile is said so"
expect_message pad "$T" "Hint: a tile element was read from shared memory but never stored" "lab05: with the zero-padding hint"
expect_no_message pad "$T" "never written|the grid must cover" "lab05: not 'never written', no grid-coverage hint"
finish
