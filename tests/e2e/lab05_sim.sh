#!/usr/bin/env bash
# lab05 without a GPU (simulation backend): the reference passes every correctness
# test with the performance tests skipped, the skeleton scores 0 (exit 1) and says C
# was never written, and a tiled kernel that ignores the last partial tile of K
# passes the 256^3 test but fails the edge shapes (the lesson of "not multiples").
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
REF="$PARLAB_SOURCE_DIR/reference/lab05-tiled-matmul"

# 1. The reference: 60 correctness points, performance skipped with the reason.
start=$(date +%s)
run_grade ref lab05 --reference --device sim --work-dir "$W/work" --json "$W/ref.json"
echo "note: reference correctness suite in sim took $(( $(date +%s) - start )) s"
expect_rc ref 0
expect_in "$W/ref.out" "Total: 60(\.0+)? / (100|60 graded here)" "reference gets every correctness point"
expect_in "$W/ref.out" "tiled: 17 x 17 x 17 \(tile \+ 1\) +passed" "tile + 1 passes"
expect_in "$W/ref.out" "simulation backend checks correctness, not speed" "perf skip says why"
expect_not_in "$W/ref.out" "failed" "no failing test"

# 2. The skeleton: compiles, runs, scores 0, and says C was never written.
run_grade skel lab05 --device sim --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_json "$W/skel.json" score "0(\.0+)?,"
expect_in "$W/skel.out" "Total: 0(\.0+)? / (100|60 graded here)" "skeleton total is 0 / 100"
expect_in "$W/skel.out" "never written \(outputs are poisoned with NaN\)" "NaN explained"

# 3. Full tiles only: the loop over K stops before the last partial tile.
SUB="$W/full_tiles_only"
mkdir -p "$SUB"
sed -e 's/for (int t = 0; t < K; t += kTile)/for (int t = 0; t + kTile <= K; t += kTile)/' \
  "$REF/matmul.cu" >"$SUB/matmul.cu"
if cmp -s "$REF/matmul.cu" "$SUB/matmul.cu"; then fail "the fake did not change the tiled loop"; fi
run_grade partial lab05 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/partial.json"
expect_rc partial 1
expect_in "$W/partial.out" "tiled: 256 x 256 x 256 +passed" "a multiple of the tile passes"
expect_in "$W/partial.out" "tiled: 17 x 17 x 17 \(tile \+ 1\) +failed" "tile + 1 fails"
expect_in "$W/partial.out" "naive: primes 37 x 53 x 29 +passed" "the untouched naive kernel passes"
finish
