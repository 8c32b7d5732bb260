#!/usr/bin/env bash
# Hints fire on their cause ("Hints that blame the wrong cause"): submissions
# with one bug each (tests/fakes/hint_causes/, made from the reference here), graded in
# the simulator; the failed test's message names the cause, and the hint of the cause
# it used to be blamed on is absent.
#   - lab02 GPU results left in a scratch buffer: the GPU hint (copy into out), not the
#     CPU workers' split hint;
#   - lab02 GPU tile with an unloaded shared element: NaN from shared memory, not
#     "never written" nor 0/0;
#   - lab03 heat_solve without its final copy: a step behind, not "off by rounding";
#   - lab05 tile loads without the zero padding: NaN from shared memory, not
#     "never written" with the grid-coverage hint;
#   - lab04 max_atomic started from cudaMemset(0): on all-negative data the 0 above every
#     value names the starting value, not "not implemented yet?".
#   - lab03 heat_step updating its grid in place: the race names the stencil and a second
#     buffer, not a __syncthreads() (a barrier orders one block, never its neighbours).
# And realistic student bugs (tests/fakes/labNN/*.patch, tests/agreement/verdicts.tsv):
#   - lab03 matrix_scale with x and y swapped: the hint names the swap, not only rounding;
#   - lab03 heat_step without its boundary: heat_solve's poisoned grid is said before the
#     step count computed from it (no step-count hint), and "not implemented yet?" runs
#     into its hint without a stray period;
#   - lab04 a histogram that zeroes and flushes only bin threadIdx.x: bins past 256 named;
#   - lab04 a sum on n / 256 blocks: a few elements missing is not "off by rounding only";
#   - lab05 the naive kernel with x and y swapped: the hint names the swap;
#   - lab06 a round trip copying n bytes: "a size in bytes", not the chunk offsets;
#   - lab06 a copy back naming cudaMemcpyHostToDevice: the CUDA error at streams.cu:LINE.
#   - a missing barrier (lab04 tree level, lab05 tile load): a __syncthreads(), not an atomic;
#   - lab04 the sum zeroed by block 0 in the kernel: the order blocks run in, not "sum each
#     block in a tree";
#   - undefined behaviour (lab04 shuffles outside the mask, lab05 barriers at different
#     sites or in a branch): named as such, on a failed test, never "the answers are right".
# Every grading is the fake-gradings fixture's (fake_result: tests/fakes/grade_table.sh
# grades each line of tests/agreement/verdicts.tsv and tests/fakes/gradings.tsv once per
# suite run).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

# expect_test_not_says REPORT "TEST NAME" REGEX WHAT: the test's parsed message does not
# match REGEX (the counterpart of lib.bash's expect_test_says; a test that is not in the
# report fails it too).
expect_test_not_says() {
  _rf_prefix "$1"
  local got; got=$(result_field "$1" tests "$2" message 2>&1) || { fail "$4: $got"; return; }
  if [[ "$got" =~ $3 ]]; then fail "$4: /$3/ in the message of '$2': ${got:0:600}"; else pass "$4"; fi
}
grade_fake() {  # NAME LAB KIND: hint_causes/KIND's grading (made by its make_submission.sh)
  fake_result "$1" "$2" "hint_causes/$3" --no-perf
  expect_rc "$1" 1
}

grade_fake scratch lab02 lab02_gpu_scratch_uncopied
T="predict_gpu: 2000 x 500"
expect_test_says "$W/scratch.json" "$T" "Hint: these predictions never reached out.*copy it into out" "lab02 GPU: the GPU task's hint names the missing copy"
expect_test_not_says "$W/scratch.json" "$T" "split the m queries|worker w" "lab02 GPU: no CPU-worker hint"
expect_status "$W/scratch.json" "predict_parallel: 2000 x 500, all cores" passed "lab02 scratch: the CPU tests pass"

grade_fake tile lab02 lab02_gpu_tile_off_by_one
expect_test_says "$W/tile.json" "$T" "NaN computed from shared memory never stored to" "lab02 GPU: NaN from an unloaded tile is said so"
expect_test_says "$W/tile.json" "$T" "Hint: a training point was read from shared memory before it was loaded" "lab02 GPU: with the unloaded-tile hint"
expect_test_not_says "$W/tile.json" "$T" "never written|split the m queries|0/0" "lab02 GPU: not 'never written', no worker or 0/0 hint"

grade_fake solve lab03 lab03_solve_final_copy_missing
T="heat_solve, to a tolerance"
expect_test_says "$W/solve.json" "$T" "Hint: close, but a float solver's rounding stays far inside the tolerance: is out a step behind\?" "lab03 heat_solve: a grid left in work is a step behind"
expect_test_not_says "$W/solve.json" "$T" "off by rounding only" "lab03 heat_solve: not 'off by rounding only'"
expect_status "$W/solve.json" "heat_step, 257 x 129" passed "lab03: heat_step itself passes"

grade_fake pad lab05 lab05_tile_not_zero_padded
T="tiled: 1 x 1 x 1"
expect_test_says "$W/pad.json" "$T" "NaN computed from shared memory never stored to" "lab05: NaN from an unpadded tile is said so"
expect_test_says "$W/pad.json" "$T" "Hint: a tile element was read from shared memory but never stored" "lab05: with the zero-padding hint"
expect_test_not_says "$W/pad.json" "$T" "never written|the grid must cover" "lab05: not 'never written', no grid-coverage hint"

grade_fake maxzero lab04 lab04_max_starts_from_zero
T="max_atomic: all values negative"
expect_test_says "$W/maxzero.json" "$T" "above every expected value.*starts from 0 \\(cudaMemset\\(0\\)" "lab04 max: a 0 above negative data names the starting value"
expect_test_not_says "$W/maxzero.json" "$T" "not implemented yet" "lab04 max: not 'not implemented yet?'"
expect_status "$W/maxzero.json" "max_atomic: block size + 1, max in the last block" passed "lab04 max: with a positive maximum the 0 start hides, and that test passes"

grade_fake inplace lab03 lab03_heat_step_in_place
T="heat_step, 61 x 37 (primes)"
expect_test_says "$W/inplace.json" "$T" "a stencil updating its grid in place.*write the new ones to a second buffer" \
  "lab03 in-place heat_step: the race names the in-place stencil and a second buffer"
expect_test_not_says "$W/inplace.json" "$T" "Put a __syncthreads\\(\\)|make the update atomic" \
  "lab03 in-place heat_step: no barrier (it orders one block only) and no atomic advice"
expect_status "$W/inplace.json" "heat_solve, to a tolerance" passed "lab03 in-place heat_step: heat_solve's two buffers pass"

# grade_patch NAME LAB FAKE: a tests/fakes/ patch on the reference (an agreement line).
grade_patch() {
  fake_result "$1" "$2" "$3" --no-perf
  expect_rc "$1" 1
}

grade_patch swap3 lab03 lab03/scale_row_col_swapped
T="matrix_scale, 9 x 31 (block +1 rows, -1 columns)"
expect_test_says "$W/swap3.json" "$T" "never written.*Hint: .*x and y not swapped" "lab03 x/y swapped: the hint names the swap"

grade_patch boundary lab03 lab03/boundary_not_copied
T="heat_solve, to a tolerance"
expect_test_says "$W/boundary.json" "$T" "^grid\\[.*never written.*Hint: out still holds its poison.*boundary included.*'iterations' differs too" \
  "lab03 heat_solve: the poisoned grid said first, the wrong step count named after it"
expect_test_not_says "$W/boundary.json" "$T" "count every step" "lab03 heat_solve: no step-count hint for a count computed from poison"
expect_test_says "$W/boundary.json" "heat_step, one row (boundary only)" "never written.*not implemented yet\\? Hint: every grid point, boundary included" \
  "lab03 heat_step: the boundary hint, after the question mark without a period"

grade_patch flush lab04 lab04/histogram_flush_no_stride
expect_test_says "$W/flush.json" "histogram: 300 bins (more bins than threads)" "Every bin below 256 is right.*a loop with stride blockDim.x" \
  "lab04 histogram: bins past blockDim never flushed, named"
expect_status "$W/flush.json" "histogram: prime size, 256 bins" passed "lab04 histogram: 256 bins pass"

grade_patch sumfloor lab04 lab04/sum_grid_not_rounded_up
T="sum: prime size, mixed signs"
expect_test_says "$W/sumfloor.json" "$T" "Hint: close, but past a tolerance.*elements skipped" "lab04 sum: a missing partial block is looked for first"
expect_test_not_says "$W/sumfloor.json" "$T" "off by rounding only" "lab04 sum: not 'off by rounding only'"

# A missing barrier (a tree level, a tile loaded and read): the race says to put a
# __syncthreads() between them, never to make the update atomic.
grade_patch tree lab04 lab04/sum_tree_no_sync
T="sum: prime size, mixed signs"
expect_test_says "$W/tree.json" "$T" "data race on shared array .partial.*put a __syncthreads\\(\\).* between the steps" \
  "lab04 tree without its barrier: a __syncthreads() between the steps"
expect_test_not_says "$W/tree.json" "$T" "make the update atomic" "lab04 tree without its barrier: not 'make the update atomic'"
grade_patch tileload lab05 lab05/tiled_no_sync_after_load
T="tiled: 17 x 17 x 17 (tile + 1)"
expect_test_says "$W/tileload.json" "$T" "data race on shared array .(As|Bs).*Put a __syncthreads\\(\\)( \\(or __syncwarp\\(\\)\\))? between the write and the read" \
  "lab05 tile read before its barrier: a __syncthreads() between the write and the read"
expect_test_not_says "$W/tileload.json" "$T" "make the update atomic" "lab05 tile read before its barrier: not 'make the update atomic'"

# The sum zeroed inside the kernel by block 0: a tree sum whose result changes with the
# order blocks run in. Whichever run fails first (the test's own, or a re-run in another
# order), the message names that order, and the serial-chain advice is no instruction.
# The fake is right in every order that starts block 0 first: with the fake table's one
# re-run, a test of few blocks can draw two such orders and pass (it did in one suite
# run), so each test's message is checked where it failed, and one must have failed.
grade_patch zeroed lab04 lab04/zeroed_in_kernel
zeroed_failed=0
for T in "sum: prime size, mixed signs" "sum: spikes (order of summation)"; do
  [ "$(result_field "$W/zeroed.json" tests "$T" status)" = failed ] || continue
  zeroed_failed=$((zeroed_failed + 1))
  expect_test_says "$W/zeroed.json" "$T" "order blocks run in" "lab04 sum zeroed by block 0 ($T): the block order named"
  expect_test_not_says "$W/zeroed.json" "$T" "rounds this badly: sum each block in a tree" \
    "lab04 sum zeroed by block 0 ($T): not told to sum each block in a tree"
done
[ "$zeroed_failed" -ge 1 ] && pass "lab04 sum zeroed by block 0: $zeroed_failed of its two sum tests failed" ||
  fail "lab04 sum zeroed by block 0: neither sum test failed"

# Undefined behaviour: the finding names it and the test's status agrees.
grade_patch shuffle lab04 lab04/shuffle_outside_mask
T="sum: one element"
expect_status "$W/shuffle.json" "$T" failed "lab04 shuffles outside the mask: the test fails"
expect_test_says "$W/shuffle.json" "$T" "read values a GPU leaves undefined.*simulator found undefined behaviour" \
  "lab04 shuffles outside the mask: the undefined values named as the likely cause"
expect_test_not_says "$W/shuffle.json" "$T" "elements added twice|points unchanged|answers are right" \
  "lab04 shuffles outside the mask: not the lab's too-large hint, no 'points unchanged'"
grade_patch sites lab05 lab05/divergent_barrier
T="tiled: 1 x 1 x 1"
expect_status "$W/sites.json" "$T" failed "lab05 barriers at different sites: the test fails"
expect_test_says "$W/sites.json" "$T" "^undefined behaviour in a kernel: threads of one block wait at different __syncthreads\\(\\)" \
  "lab05 barriers at different sites: undefined behaviour, named"
expect_test_not_says "$W/sites.json" "$T" "deadlock|answers are right" "lab05 barriers at different sites: not a deadlock"
grade_patch branch lab05 lab05/barrier_in_branch
T="tiled: 15 x 15 x 15 (tile - 1)"
expect_status "$W/branch.json" "$T" failed "lab05 a barrier in a branch: the test fails"
expect_test_says "$W/branch.json" "$T" "simulator found undefined behaviour.*early exit before a barrier" \
  "lab05 a barrier in a branch: the early exit listed as undefined behaviour"
expect_test_not_says "$W/branch.json" "$T" "answers are right|points unchanged" \
  "lab05 a barrier in a branch: a failed test is not told its points were kept"

grade_patch swap5 lab05 lab05/naive_row_col_swapped
expect_test_says "$W/swap5.json" "naive: primes 37 x 53 x 29" "Hint: every element of C must be written once.*x and y not swapped" \
  "lab05 naive x/y swapped: the hint names the swap"

grade_patch bytes lab06 lab06/roundtrip_copies_n_bytes
T="round trip, pageable buffers"
expect_test_says "$W/bytes.json" "$T" "a copy of n bytes where n elements were meant.*Hint: cudaMemcpy and cudaMemcpyAsync take a size in bytes" \
  "lab06 round trip: n bytes for n floats named"
expect_test_not_says "$W/bytes.json" "$T" "chunk offsets" "lab06 round trip: no chunk-offset hint"

grade_patch direction lab06 lab06/roundtrip_direction_swapped
expect_test_says "$W/direction.json" "round trip, pageable buffers" "cudaErrorInvalidValue.*cudaMemcpyHostToDevice\\) at streams\\.cu:[0-9]+$" \
  "lab06 a swapped copy direction: the error names the call at streams.cu:LINE, not the grader's staging path"
finish
