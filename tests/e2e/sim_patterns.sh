#!/usr/bin/env bash
# The simulator fails no correct CUDA code and misses no bug a GPU shows:
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
#   - the same maxima written by the kernel into managed memory and read with no
#     synchronization after the launch: the bytes from before the kernel, a finding naming
#     the read and the kernel; with cudaDeviceSynchronize() first: full marks, no finding;
#   - lab06 pipeline that does not synchronize its last stream (tests/fakes/lab06/
#     skips_last_sync): the driver reads host_out as soon as the call returns: stale
#     chunks, the pipeline tests fail with a finding naming the copy; the lab06 reference
#     keeps full marks with no finding;
#   - lab06 pipeline refilling a stream's pinned staging buffer before that stream's
#     previous copy to the device completed: the new bytes reach the device, the
#     pipeline tests fail with a finding naming the refill and the copy; the twin that
#     synchronizes the stream first: full marks, no finding.
#   - each lab's functions in the shapes of public CUDA code (sim_patterns/*_public_*:
#     dynamic shared memory, block-size templates, __constant__ symbols, cooperative
#     groups passed as thread_group, occupancy-sized grids, cudaFuncGetAttributes,
#     cudaMallocAsync, managed memory, streams joined through cudaStreamWaitEvent):
#     full marks (lab05 with its data-reuse counter check), no race, fault, deadlock,
#     memory-access or early-read note.
# Every grading is the fake-gradings fixture's (fake_result: tests/fakes/grade_table.sh
# grades each line of tests/agreement/verdicts.tsv and tests/fakes/gradings.tsv once per
# suite run); a fake folder holding some of a lab's files is graded with the reference's
# others (tests/fakes/make_fake.sh).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
# expect_field_lacks REPORT DOTTED.KEY REGEX WHAT: the parsed field does not match REGEX
# (the counterpart of lib.bash's expect_field; a field that is not there fails it too).
expect_field_lacks() {
  _rf_prefix "$1"
  local keys got; IFS=. read -ra keys <<<"$2"
  got=$(result_field "$1" "${keys[@]}" 2>&1) || { fail "$4: $got"; return; }
  if [[ "$got" =~ $3 ]]; then fail "$4: $1 has /$3/ in $2: ${BASH_REMATCH[0]}"; else pass "$4"; fi
}

# 1. float4 + helper_cuda.h (lab03, performance included: the counter-graded check).
fake_result f4 lab03 sim_patterns/lab03_float4_helper_cuda -
expect_field "$W/f4.json" score 68 "float4 + helper_cuda.h: every point graded here"
expect_field "$W/f4.json" graded_max_score 68 "of 68 graded here"
expect_scored "$W/f4.json" "matrix_scale bandwidth (2D grid)" "passed 8 8" "float4 matrix_scale: the coalescing check's 8 points"
# Neither the report's messages and notes nor the simulator's own output.
for what in "uncoalesced:no uncoalesced note" "simulator found:no simulator finding at all" \
  "data race (on|between):byte stores into one word: no data race"; do
  expect_no_message "$W/f4.json" "${what%%:*}" "float4: ${what#*:}"
  expect_no_output "$W/f4.json" "${what%%:*}" "float4: ${what#*:} (simulator output)"
done

# 2. A cooperative sum sized as the programming guide does.
fake_result coop lab04 sim_patterns/lab04_cooperative_sum --no-perf
expect_rc coop 0
expect_field "$W/coop.json" score 60 "cooperative launch: full correctness marks"
expect_no_message "$W/coop.json" "fault in a kernel|grid-wide sync" "cooperative launch: no grid-sync refusal"
expect_no_output "$W/coop.json" "fault in a kernel|grid-wide sync" "cooperative launch: no grid-sync refusal (simulator output)"

# 3. Warp-synchronous tile copies.
fake_result warpsync lab05 sim_patterns/lab05_warp_sync_copy --no-perf
expect_rc warpsync 0
expect_field "$W/warpsync.json" score 60 "warp-synchronous copy: full correctness marks"
expect_no_message "$W/warpsync.json" "deadlock" "warp-synchronous copy: no deadlock"
expect_no_output "$W/warpsync.json" "deadlock" "warp-synchronous copy: no deadlock (simulator output)"

# 4. libcu++ <cuda/barrier> builds (block-scope barriers are supported); the fake's
# empty functions then fail their tests, with no "No such file" anywhere.
fake_result libcupp lab05 sim_patterns/lab05_libcupp_barrier --no-perf
expect_field "$W/libcupp.json" build.ok true "<cuda/barrier> builds in sim"
expect_field_lacks "$W/libcupp.json" build.log "No such file or directory" "no 'No such file' for a libcu++ header"
expect_field_lacks "$W/libcupp.json" build.log "not supported by the simulator" "<cuda/barrier> is not refused"

# 5. Blocks folding their maxima into one word without an atomic: a race between blocks.
fake_result blockrace lab04 sim_patterns/lab04_block_max_race --no-perf
expect_rc blockrace 1
expect_status "$W/blockrace.json" "max_block: prime size" failed "the race between blocks fails max_block"
expect_test_says "$W/blockrace.json" "max_block: prime size" "data race between blocks on global memory between max_reduce.cu:34 and max_reduce.cu:34" "the race names the line of the plain update"
expect_status "$W/blockrace.json" "max_atomic: all values negative" passed "max_atomic (atomicMax) passes"

# 6. An asynchronous copy read before the synchronization that orders it.
fake_result async lab03 sim_patterns/lab03_async_flag_unsynced --no-perf
expect_rc async 1
expect_status "$W/async.json" "heat_solve, to a tolerance" failed "the unsynchronized read of the copy fails heat_solve"
expect_status "$W/async.json" "heat_step, 3 x 3" passed "the rest of the submission passes"
ASYNC_CU="$FAKE_DIR/kernels.cu"  # made from the reference and the fake's patch
COPY_LINE=$(line_of "$ASYNC_CU" 'PARLAB_CUDA_CHECK\(cudaMemcpyAsync')
READ_LINE=$(line_of "$ASYNC_CU" 'std::max_element\(block_max')
expect_test_says "$W/async.json" "heat_solve, to a tolerance" "host code read bytes \[0, [0-9]+\) of a pinned buffer of [0-9]+ bytes \(cudaMallocHost\) at kernels.cu:$READ_LINE before the cudaMemcpyAsync on the default stream issued at kernels.cu:$COPY_LINE completed: synchronise the stream" \
  "the early read is a finding naming the read (kernels.cu:$READ_LINE) and the copy (kernels.cu:$COPY_LINE)"

# 6b. Managed memory that a kernel writes, read on the host with no synchronization
#     after the launch: the host sees the bytes from before the kernel, as on a GPU.
fake_result managed lab03 sim_patterns/lab03_managed_flag_unsynced --no-perf
expect_rc managed 1
expect_status "$W/managed.json" "heat_solve, to a tolerance" failed "the unsynchronized read of managed memory fails heat_solve"
expect_status "$W/managed.json" "heat_step, 3 x 3" passed "the rest of the submission passes"
READ_LINE=$(line_of "$FAKE_DIR/kernels.cu" 'std::max_element\(block_max')
expect_test_says "$W/managed.json" "heat_solve, to a tolerance" "host code read bytes \[[0-9]+, [0-9]+\) of managed memory of [0-9]+ bytes \(cudaMallocManaged\) at kernels.cu:$READ_LINE that kernel heat_step_kernel[^ ]*, launched on the default stream before it, writes, with no synchronization in between" \
  "the early read is a finding naming the read (kernels.cu:$READ_LINE) and the kernel"
# ... and with cudaDeviceSynchronize() before the read: full marks, no finding.
fake_result managedsync lab03 sim_patterns/lab03_managed_flag_synced --no-perf
expect_rc managedsync 0
expect_no_test "$W/managedsync.json" "failed|partial" "synchronized managed memory: every test passes"
expect_no_message "$W/managedsync.json" "simulator found" "synchronized managed memory: no simulator finding"

# 7. lab06: the last stream never synchronized; the reference: no finding.
fake_result skipsync lab06 lab06/skips_last_sync --no-perf  # the reference plus the patch
expect_rc skipsync 1
expect_status "$W/skipsync.json" "pipeline: 4 streams, 8 chunks, last chunk short" failed "the unsynchronized stream fails the pipeline"
expect_status "$W/skipsync.json" "round trip, pinned buffers" passed "the round trips pass"
D2H_LINE=$(line_of "$FAKE_DIR/streams.cu" 'cudaMemcpyAsync\(host_out')
expect_test_says "$W/skipsync.json" "pipeline: 4 streams, 8 chunks, last chunk short" "host code read bytes \[[0-9]+, [0-9]+\) of a pinned buffer of [0-9]+ bytes \(cudaMallocHost\) at driver.cpp:[0-9]+ before the cudaMemcpyAsync on stream #[0-9]+ \(streams numbered in creation order\) issued at streams.cu:$D2H_LINE completed" \
  "the finding names the copy back (streams.cu:$D2H_LINE) and the driver's read"
fake_result ref6 lab06 reference --no-perf
expect_rc ref6 0
expect_field "$W/ref6.json" score 60 "the lab06 reference: full correctness marks"
expect_field "$W/ref6.json" graded_max_score 60 "of 60 graded here"
expect_no_message "$W/ref6.json" "simulator found" "the lab06 reference: no simulator finding"
expect_no_output "$W/ref6.json" "simulator found" "the lab06 reference: no simulator finding (simulator output)"

# 7b. lab06: a stream's pinned staging buffer refilled for its next chunk before its
#     previous copy to the device completed: the device gets the new chunk's bytes, the
#     pipeline fails with a finding naming the refill and the copy; refilled after
#     cudaStreamSynchronize: full marks, no finding.
fake_result staging lab06 sim_patterns/lab06_staging_refilled_early --no-perf
expect_rc staging 1
expect_status "$W/staging.json" "pipeline: 4 streams, 8 chunks, last chunk short" failed "the early refill fails the pipeline"
expect_status "$W/staging.json" "round trip, pinned buffers" passed "the round trips pass"
REFILL_LINE=$(line_of "$FAKE_DIR/streams.cu" 'std::copy\(host_in')
H2D_LINE=$(line_of "$FAKE_DIR/streams.cu" 'cudaMemcpyAsync\(d_in')
expect_test_says "$W/staging.json" "pipeline: 4 streams, 8 chunks, last chunk short" "host code wrote bytes \[0, [0-9]+\) of a pinned buffer of [0-9]+ bytes \(cudaMallocHost\) at streams.cu:$REFILL_LINE, the source of the cudaMemcpyAsync to the device on stream #[0-9]+ \(streams numbered in creation order\) issued at streams.cu:$H2D_LINE, before that copy completed" \
  "the finding names the refill (streams.cu:$REFILL_LINE) and the copy (streams.cu:$H2D_LINE)"
fake_result stagingsync lab06 sim_patterns/lab06_staging_refilled_synced --no-perf
expect_rc stagingsync 0
expect_field "$W/stagingsync.json" score 60 "refilled after cudaStreamSynchronize: full correctness marks"
expect_no_message "$W/stagingsync.json" "simulator found" "refilled after cudaStreamSynchronize: no simulator finding"

# 8. Public code shapes, one fake per lab (docs/simulation.md, "Agreement with a GPU").
# Divergence is weighted by work, and one or two lanes' side work and a branch into the
# simulator's code (a leader's atomic) are not divergence (docs/simulation.md, "Branch
# divergence per warp"): the halo tile, the cooperative-groups reduction and the
# warp-aggregated histogram get no divergence note.
WRONG_NOTE="data race (on|between)|uncoalesced|bank conflict|deadlock in a kernel|fault in a kernel|invalid device memory access|from an inactive lane|exited before|host code (read|wrote) bytes"
for pub in lab03_public_kernels lab04_public_reductions lab05_public_sgemm lab06_public_streams; do
  lab=${pub%%_*}
  if [ "$lab" = lab05 ]; then mode=-; max=70; else mode=--no-perf; max=60; fi
  fake_result "$pub" "$lab" "sim_patterns/$pub" "$mode"
  expect_rc "$pub" 0
  expect_field "$W/$pub.json" score "$max" "$pub: full marks"
  expect_field "$W/$pub.json" graded_max_score "$max" "$pub: of $max graded here"
  expect_no_message "$W/$pub.json" "$WRONG_NOTE" "$pub: no note that blames working code"
  expect_no_output "$W/$pub.json" "$WRONG_NOTE" "$pub: no such simulator warning"
  expect_no_message "$W/$pub.json" "simulator found: warp divergence|simulator: warp divergence" "$pub: no divergence note on efficient code"
done
expect_scored "$W/lab05_public_sgemm.json" "data reuse: tiled vs the reference naive kernel" "passed 10 10" \
  "tiles in extern __shared__: the data-reuse check's points"

finish
