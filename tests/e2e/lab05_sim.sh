#!/usr/bin/env bash
# lab05 without a GPU (simulation backend): the reference passes every correctness
# test with the performance tests skipped, the skeleton scores 0 (exit 1) and says C
# was never written, and a tiled kernel that ignores the last partial tile of K
# passes the 256^3 test but fails the edge shapes (the lesson of "not multiples"), and
# a grid rounded down is told by (row, col), the partial tile and the hint.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
REF="$PARLAB_SOURCE_DIR/reference/lab05-tiled-matmul"

# 1. The reference: 60 correctness points, performance skipped with the reason.
fake_result ref lab05 reference -  # the fake table's grading
expect_rc ref 0
expect_field "$W/ref.json" score 70 "reference gets every correctness point and the data-reuse check's 10"
expect_field "$W/ref.json" graded_max_score 70 "70 graded here"
expect_test "$W/ref.json" "tiled: 17 x 17 x 17 (tile + 1)" status passed "tile + 1 passes"
expect_test "$W/ref.json" "tiled vs cuBLAS" status not_graded "the timed performance tests are not graded in sim"
expect_test_says "$W/ref.json" "tiled vs cuBLAS" "simulation backend checks correctness, not speed" "perf skip says why"
expect_no_test "$W/ref.json" failed "no failing test"

# 2. The skeleton: compiles, runs, scores 0, and says C was never written.
run_grade skel lab05 --device sim --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" score 0 "skeleton scores 0"
expect_field "$W/skel.json" graded_max_score 70 "of 70 graded here"
expect_message "$W/skel.json" "never written \(outputs are poisoned with NaN" "NaN explained"

# 3. Full tiles only: the loop over K stops before the last partial tile.
SUB="$W/full_tiles_only"
mkdir -p "$SUB"
sed -e 's/for (int t = 0; t < K; t += kTile)/for (int t = 0; t + kTile <= K; t += kTile)/' \
  "$REF/matmul.cu" >"$SUB/matmul.cu"
if cmp -s "$REF/matmul.cu" "$SUB/matmul.cu"; then fail "the fake did not change the tiled loop"; fi
run_grade partial lab05 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/partial.json"
expect_rc partial 1
T17="tiled: 17 x 17 x 17 (tile + 1)"
expect_test "$W/partial.json" "tiled: large square, whole tiles" status passed "a multiple of the tile passes"
expect_test "$W/partial.json" "$T17" status failed "tile + 1 fails"
expect_test_says "$W/partial.json" "tiled: 1 x 1 x 1" "not implemented yet\? Or a loop that never ran" \
  "K below the tile: all zeros read as a loop that never ran too"
expect_test "$W/partial.json" "naive: primes 37 x 53 x 29" status passed "the untouched naive kernel passes"
expect_test_says "$W/partial.json" "$T17" "Hint: check the tile indices.*if only the shapes that are not multiples of the tile fail, the loop over K" \
  "the dropped K tile is hinted"

# 4. The grid rounded down: the last partial tile of C is never written; the message
# gives (row, col), the block and the hint.
SUB="$W/grid_rounded_down"
mkdir -p "$SUB"
sed -e 's|dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile)|dim3(N / kTile, M / kTile)|' \
  "$REF/matmul.cu" >"$SUB/matmul.cu"
if cmp -s "$REF/matmul.cu" "$SUB/matmul.cu"; then fail "the fake did not change the grid"; fi
run_grade floor lab05 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/floor.json"
expect_rc floor 1
expect_test "$W/floor.json" "$T17" status failed "tile + 1 fails"
expect_test_says "$W/floor.json" "$T17" "c\[16\] \(row 0, col 16\)" "the first mismatch as (row, col)"
expect_test_says "$W/floor.json" "$T17" "only the partial last tile differs \(rows >= 16 or columns >= 16" "the partial tile named"
expect_test_says "$W/floor.json" "$T17" "Hint: every element of C must be written once.*rounded up" "with the hint"
expect_test "$W/floor.json" "tiled: large square, whole tiles" status passed "a multiple of the tile passes"
finish
