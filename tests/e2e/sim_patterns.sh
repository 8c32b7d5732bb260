#!/usr/bin/env bash
# The simulator fails no correct CUDA code and misses no bug a GPU shows (issue 30):
# fakes under tests/fakes/sim_patterns/, each in the shape of a public pattern, graded
# with --device sim.
#   - lab03 with float4 / __ldg(float4) matrix_scale, one shared byte per thread in
#     heat_step, and helper_cuda.h's checks and device pick: compiles, full marks, the counter-graded bandwidth check's 8 points,
#     no "uncoalesced" note;
#   - lab04 sum as a cooperative kernel sized by the occupancy API x the SM count, with
#     this_grid().sync(): full correctness marks;
#   - lab05 with warp-synchronous tile copies (__syncwarp() while part of the warp
#     waits at __syncthreads()): full correctness marks, no deadlock;
#   - lab05 including libcu++'s <cuda/barrier>: "not supported by the simulator";
#   - lab04 max_block folding block maxima into the result without an atomic: the race
#     check across blocks fails the max_block tests, naming the line;
#   - lab03 heat_solve reading block maxima copied with cudaMemcpyAsync into pinned
#     memory without synchronizing: stale data, as on a GPU: the tolerance test fails,
#     with a finding naming the line of the read and the copy's;
#   - lab06 pipeline that does not synchronize its last stream (tests/fakes/lab06/
#     skips_last_sync): the driver reads host_out as soon as the call returns: stale
#     chunks, the pipeline tests fail with a finding naming the copy; the lab06 reference
#     keeps full marks with no finding.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
PATTERNS="$PARLAB_SOURCE_DIR/tests/fakes/sim_patterns"

# A lab04 submission: the reference's files with one replaced by a fake.
lab04_fake() {  # NAME FAKE_FILE
  reference_with lab04 "$W/$1" "$2"
  echo "$W/$1"
}
status_of() {  # JSON TEST_NAME
  python3 -c 'import json,sys
for t in json.load(open(sys.argv[1]))["tests"]:
    if t["name"] == sys.argv[2]: print(t["status"], t["points"], t["max_points"])' "$1" "$2"
}

# 1. float4 + helper_cuda.h (lab03, performance included: the counter-graded check).
run_grade f4 lab03 "$PATTERNS/lab03_float4_helper_cuda" --device sim --work-dir "$W/work" \
  --json "$W/f4.json"
expect_in "$W/f4.out" "Total: 68(\.0+)? / 68(\.0+)? graded here" "float4 + helper_cuda.h: every point graded here"
got=$(status_of "$W/f4.json" "matrix_scale bandwidth (2D grid)")
if [ "$got" = "passed 8.0 8.0" ]; then pass "float4 matrix_scale: the coalescing check's 8 points"; else
  fail "float4 matrix_scale: the coalescing check is '$got'"; fi
expect_not_in "$W/f4.json" "uncoalesced" "float4: no uncoalesced note"
expect_not_in "$W/f4.json" "simulator found" "float4: no simulator finding at all"
expect_not_in "$W/f4.json" "data race (on|between)" "byte stores into one word: no data race"

# 2. A cooperative sum sized as the programming guide does.
SUB=$(lab04_fake coop "$PATTERNS/lab04_cooperative_sum/sum_reduce.cu")
run_grade coop lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" --json "$W/coop.json"
expect_rc coop 0
expect_in "$W/coop.out" "Total: 60(\.0+)? / (100|60 graded here)" "cooperative launch: full correctness marks"
expect_not_in "$W/coop.json" "fault in a kernel|grid-wide sync" "cooperative launch: no grid-sync refusal"

# 3. Warp-synchronous tile copies.
mkdir -p "$W/warpsync"
cp "$PATTERNS/lab05_warp_sync_copy/matmul.cu" "$W/warpsync/"
run_grade warpsync lab05 "$W/warpsync" --device sim --no-perf --work-dir "$W/work" \
  --json "$W/warpsync.json"
expect_rc warpsync 0
expect_in "$W/warpsync.out" "Total: 60(\.0+)? / (100|60 graded here)" "warp-synchronous copy: full correctness marks"
expect_not_in "$W/warpsync.json" "deadlock" "warp-synchronous copy: no deadlock"

# 4. libcu++ is refused by name.
mkdir -p "$W/libcupp"
cp "$PATTERNS/lab05_libcupp_barrier/matmul.cu" "$W/libcupp/"
run_grade libcupp lab05 "$W/libcupp" --device sim --no-perf --work-dir "$W/work"
expect_in "$W/libcupp.out" "libcu\+\+ \(<cuda/barrier>\) is not supported by the simulator" "<cuda/barrier> is refused by name"
expect_not_in "$W/libcupp.out" "No such file or directory" "no 'No such file' for a libcu++ header"

# 5. Blocks folding their maxima into one word without an atomic: a race between blocks.
SUB=$(lab04_fake blockrace "$PATTERNS/lab04_block_max_race/max_reduce.cu")
run_grade blockrace lab04 "$SUB" --device sim --no-perf --work-dir "$W/work" \
  --json "$W/blockrace.json"
expect_rc blockrace 1
expect_status "$W/blockrace.json" "max_block: prime size" failed "the race between blocks fails max_block"
expect_in "$W/blockrace.json" "data race between blocks on global memory between max_reduce.cu:34 and max_reduce.cu:34" "the race names the line of the plain update"
expect_status "$W/blockrace.json" "max_atomic: all values negative" passed "max_atomic (atomicMax) passes"

# 6. An asynchronous copy read before the synchronization that orders it.
fake_submission lab03 sim_patterns/lab03_async_flag_unsynced
run_grade async lab03 "$FAKE_DIR" --device sim --no-perf \
  --work-dir "$W/work" --json "$W/async.json"
expect_rc async 1
expect_status "$W/async.json" "heat_solve, to a tolerance" failed "the unsynchronized read of the copy fails heat_solve"
expect_status "$W/async.json" "heat_step, 3 x 3" passed "the rest of the submission passes"
ASYNC_CU="$FAKE_DIR/kernels.cu"  # made from the reference and the fake's patch
COPY_LINE=$(line_of "$ASYNC_CU" 'PARLAB_CUDA_CHECK\(cudaMemcpyAsync')
READ_LINE=$(line_of "$ASYNC_CU" 'std::max_element\(block_max')
expect_in "$W/async.json" "host code read bytes \[0, [0-9]+\) of a pinned buffer of [0-9]+ bytes \(cudaMallocHost\) at kernels.cu:$READ_LINE before the cudaMemcpyAsync on the default stream issued at kernels.cu:$COPY_LINE completed: synchronise the stream" \
  "the early read is a finding naming the read (kernels.cu:$READ_LINE) and the copy (kernels.cu:$COPY_LINE)"

# 7. lab06: the last stream never synchronized; the reference: no finding.
mkdir -p "$W/skipsync"
cp "$PARLAB_SOURCE_DIR/tests/fakes/lab06/skips_last_sync/streams.cu" "$W/skipsync/"
run_grade skipsync lab06 "$W/skipsync" --device sim --no-perf --work-dir "$W/work" \
  --json "$W/skipsync.json"
expect_rc skipsync 1
expect_status "$W/skipsync.json" "pipeline: 4 streams, 8 chunks, last chunk short" failed "the unsynchronized stream fails the pipeline"
expect_status "$W/skipsync.json" "round trip, pinned buffers" passed "the round trips pass"
D2H_LINE=$(grep -n 'cudaMemcpyAsync(host_out' "$W/skipsync/streams.cu" | head -1 | cut -d: -f1)
expect_in "$W/skipsync.json" "host code read bytes \[[0-9]+, [0-9]+\) of a pinned buffer of [0-9]+ bytes \(cudaMallocHost\) at driver.cpp:[0-9]+ before the cudaMemcpyAsync on stream #[0-9]+ \(streams numbered in creation order\) issued at streams.cu:$D2H_LINE completed" \
  "the finding names the copy back (streams.cu:$D2H_LINE) and the driver's read"
run_grade ref6 lab06 --reference --device sim --no-perf --work-dir "$W/work" --json "$W/ref6.json"
expect_rc ref6 0
expect_in "$W/ref6.out" "Total: 60(\.0+)? / 60(\.0+)? graded here" "the lab06 reference: full correctness marks"
expect_not_in "$W/ref6.json" "simulator found" "the lab06 reference: no simulator finding"

finish
