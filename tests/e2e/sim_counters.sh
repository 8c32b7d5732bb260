#!/usr/bin/env bash
# Scored counter checks in sim mode (docs/simulation.md): a GPU
# performance test with a [tests.sim] table is graded without a GPU by a simulator
# counter, the submission's against the reference's on the same small dataset.
#   - lab03 matrix_scale with threads down a column: the coalescing check
#     ("matrix_scale bandwidth", 8 points) gets 0, both counts in the message;
#   - lab05 with the "tiled" kernel untiled: the data-reuse check (10 points) gets 0, on
#     counts of every block (32 x 32 x 1031);
#   - one thread doing a block's work (from its own local arrays, or from tiles the whole
#     block staged in shared memory or in a buffer from the device heap, by malloc or
#     by new[]) gets none of
#     lab05's data-reuse points, its correctness points kept;
#   - padding cannot buy points: lab03 uncoalesced plus useless coalesced loads, lab05
#     untiled storing its running sum every 64 steps of k, score no more than their
#     unpadded controls;
#   - the references keep those points; with --no-perf the checks are not graded;
#   - a correctness test's memory-access hint is shown only where the run is clearly
#     worse than the reference's on the same data, with both figures.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

SCALE="matrix_scale bandwidth (2D grid)"
REUSE="data reuse: tiled vs the reference naive kernel"

# 1. lab03, uncoalesced: correctness kept, the coalescing check lost, with the counts.
fake_result unc lab03 lab03/uncoalesced_scale -  # the fake table's grading
UNC="$FAKE_DIR"
LINE=$(( $(line_of "$UNC/kernels.cu" "x down a column") + 4 ))  # out[i] = alpha * in[i]
expect_rc unc 1
expect_scored "$W/unc.json" "$SCALE" "failed 0.0 8.0" "uncoalesced: the coalescing check earns nothing"
# The check's figures, parsed (measurement.counter, docs/result-schema.md).
expect_test "$W/unc.json" "$SCALE" measurement.counter.counter global_bytes_per_output "the check names its counter"
expect_test "$W/unc.json" "$SCALE" measurement.counter.value "64" "a 32-byte sector per float read and per float written"
expect_test "$W/unc.json" "$SCALE" measurement.counter.reference "8" "the reference's: 8 bytes per element, coalesced"
expect_test "$W/unc.json" "$SCALE" measurement.counter.ratio "8" "8x the reference's"
expect_test "$W/unc.json" "$SCALE" measurement.counter.full_at "1.5" "full points at 1.5x the reference's"
expect_test "$W/unc.json" "$SCALE" measurement.counter.zero_at "4" "none at 4x"
expect_test "$W/unc.json" "$SCALE" measurement.median_ratio "0" "a counter, not a speed ratio"
expect_test_says "$W/unc.json" "$SCALE" "global sectors per request 32.0 \(reference: 4.0\)" "Nsight's sectors per request next to the reference's"
expect_test_says "$W/unc.json" "$SCALE" "uncoalesced loads at kernels.cu:$LINE" "the line of the uncoalesced load"
expect_score "$W/unc.json" 60 100 "correctness points kept"
expect_field "$W/unc.json" graded_max_score 68 "68 graded here"
# The grading's time itemized (docs/result-schema.md, "Phase seconds"): every phase
# there, the sim-only ones spent, and together no more than the whole grading.
PHASES=(setup reference_runs build tests checking_reruns performance)
SUM=0
for p in "${PHASES[@]}"; do
  v=$(result_field "$W/unc.json" phase_seconds "$p")
  [[ "$v" =~ ^[0-9.e+-]+$ ]] || fail "phase_seconds.$p is a number (got '$v')"
  SUM=$(python3 -c "print($SUM + $v)")
done
for p in reference_runs tests checking_reruns; do
  python3 -c "import sys; sys.exit(0 if $(result_field "$W/unc.json" phase_seconds "$p") > 0 else 1)" \
    && pass "sim: time spent in $p" || fail "sim: no time in $p"
done
TOTAL=$(result_field "$W/unc.json" seconds)
python3 -c "import sys; sys.exit(0 if $SUM <= $TOTAL else 1)" \
  && pass "the phases ($SUM s) sum to no more than the grading ($TOTAL s)" \
  || fail "the phases ($SUM s) sum to more than the grading ($TOTAL s)"

# 2. lab05, the tiled kernel untiled: right answers, the data-reuse check lost.
fake_result untiled lab05 lab05/untiled -  # the fake table's grading
expect_rc untiled 1
# Every block counted: the untiled kernel loads 2k = 2062 per element of C and the
# reference's tile 128.9, the same every grading.
expect_test "$W/untiled.json" "$REUSE" status failed "untiled: the data-reuse check failed"
expect_test "$W/untiled.json" "$REUSE" points 0 "untiled: none of its 10 points"
expect_test "$W/untiled.json" "$REUSE" measurement.counter.counter global_loads_per_output "the check names its counter"
expect_test "$W/untiled.json" "$REUSE" measurement.counter.value "2062" "2k = 2062 loads per element of C, the same every grading"
expect_test "$W/untiled.json" "$REUSE" measurement.counter.reference "128\.875" "the reference's tile: 2k / 16"
expect_test "$W/untiled.json" "$REUSE" measurement.counter.ratio "16" "16x the reference's"
expect_test "$W/untiled.json" "$REUSE" measurement.counter.zero_at "8" "none at 8x"
expect_test_says "$W/untiled.json" "$REUSE" "used 16 times from shared memory" "the hint"
expect_score "$W/untiled.json" 60 100 "correctness points kept, nothing for data reuse"
expect_field "$W/untiled.json" graded_max_score 70 "70 graded here"

# 2a. Work the kernels' counts do not show: the answer computed on the CPU and copied into
#     C by a one-load kernel, and the untiled kernel behind 300 cheap launches (the
#     runtime once wrote 256 lines and dropped the rest). Neither beats lab05/untiled.
fake_result on_host lab05 lab05/computed_on_host -
expect_test "$W/on_host.json" "$REUSE" points 0 "computed on the CPU: none of the data-reuse points"
expect_test_says "$W/on_host.json" "$REUSE" "the host side of your code read or wrote memory [0-9]+ times" "the host's work is named"
expect_test_says "$W/on_host.json" "$REUSE" "memory accesses of host code [0-9]+ \(reference: [0-9]+\)" "both host counts shown"
fake_result flood lab05 lab05/launch_flood -
expect_test "$W/flood.json" "$REUSE" points 0 "launches past the line limit: still counted, no data-reuse points"
# One thread computing all of C from its own local arrays: 64 loads per element, half the
# tile's, but every request is one thread's; its correctness points stay.
fake_result one_thread lab05 lab05/one_thread_staged -
expect_test "$W/one_thread.json" "$REUSE" points 0 "one thread's work: none of the data-reuse points"
expect_test_says "$W/one_thread.json" "$REUSE" "made by 1\.0 threads of a warp on average \(the reference's: 3[0-9]\.[0-9]\)" "both averages named"
expect_test_says "$W/one_thread.json" "$REUSE" "threads per global request 1\.0 \(reference: 3[0-9]\.[0-9]\)" "shown side by side"
expect_score "$W/one_thread.json" 60 100 "its right answers keep the correctness points"
# The block stages the tiles with every thread, as the reference does, and one thread
# computes from them: the reference's global loads in full-warp requests, but a shared
# request per read, about 30 times the reference's requests per element.
fake_result from_shared lab05 lab05/one_thread_from_shared -
expect_test "$W/from_shared.json" "$REUSE" points 0 "one thread computing from shared tiles: none of the data-reuse points"
expect_test_says "$W/from_shared.json" "$REUSE" "made [0-9]+\.[0-9] memory requests \(global and shared, one per warp and instruction\) per output element, the reference's [0-9]+\.[0-9]" "both request counts named"
expect_test_says "$W/from_shared.json" "$REUSE" "threads per shared request 1\.[0-9] \(reference: 3[0-9]\.[0-9]\)" "shown side by side"
expect_score "$W/from_shared.json" 60 100 "its right answers keep the correctness points"
# The same with the staging buffer taken from the device heap (malloc in the kernel): the
# heap is global memory, so the one thread's reads are one-lane global requests.
fake_result from_heap lab05 lab05/one_thread_from_heap -
expect_test "$W/from_heap.json" "$REUSE" points 0 "one thread computing from a malloc'd buffer: none of the data-reuse points"
expect_test_says "$W/from_heap.json" "$REUSE" "made by 1\.[0-9] threads of a warp on average" "its global requests are one thread's"
expect_score "$W/from_heap.json" 60 100 "no false race between blocks reusing freed heap memory: the correctness points kept"
# And with new[] and delete[] in the kernel: C++'s allocation is CUDA's device heap too.
fake_result from_new lab05 lab05/one_thread_from_new -
expect_test "$W/from_new.json" "$REUSE" points 0 "one thread computing from a new[]'d buffer: none of the data-reuse points"
expect_test_says "$W/from_new.json" "$REUSE" "made by 1\.[0-9] threads of a warp on average" "its global requests are one thread's"
expect_score "$W/from_new.json" 60 100 "delete[] gives the block back: the correctness points kept"
expect_test "$W/flood.json" "$REUSE" measurement.counter.value "2062\.29[0-9]*" "the untiled kernel's 2k loads per element and the 300 launches' one each (1024 elements), counted past the limit"

# 2b. Padding: work that improves an average per request or per store only adds to the
#     whole-run totals the checks score, so neither padded fake beats its control.
fake_submission lab03 lab03/uncoalesced_padded
run_grade unc_pad lab03 "$FAKE_DIR" --device sim --work-dir "$W/work" --json "$W/unc_pad.json"
expect_rc unc_pad 1
expect_test_at_most "$W/unc_pad.json" "$SCALE" points "$W/unc.json" "60 useless coalesced loads: no more points than uncoalesced_scale"
expect_scored "$W/unc_pad.json" "$SCALE" "failed 0.0 8.0" "padded uncoalesced: the coalescing check earns nothing"
# 64 bytes of the uncoalesced pair plus 60 x 4 of the padding per element.
expect_test "$W/unc_pad.json" "$SCALE" measurement.counter.value "304" "the padding's traffic is counted, not averaged away"
expect_test_says "$W/unc_pad.json" "$SCALE" "global sectors per request 4\.9 \(reference: 4\.0\)" "the per-request average it dilutes (32.0 unpadded) is shown, not scored"
fake_submission lab05 lab05/untiled_store_padded
run_grade store_pad lab05 "$FAKE_DIR" --device sim --work-dir "$W/work" --json "$W/store_pad.json"
expect_rc store_pad 1
expect_test_at_most "$W/store_pad.json" "$REUSE" points "$W/untiled.json" "storing every 64 steps of k: no more points than untiled"
expect_test "$W/store_pad.json" "$REUSE" points 0 "padded stores: none of the data-reuse check's 10 points"
expect_test "$W/store_pad.json" "$REUSE" measurement.counter.value "2062" "loads per element of C, as untiled: the extra stores change nothing"
expect_test_says "$W/store_pad.json" "$REUSE" "global loads per global store 121\.[0-9] \(reference: 128\.9\)" "the loads per store it games are shown, not scored"

# 3. The references keep the checks' points (and their totals, in every format).
fake_result ref3 lab03 reference -  # the fake table's grading
expect_rc ref3 0
expect_scored "$W/ref3.json" "$SCALE" "passed 8.0 8.0" "lab03 reference: the coalescing check's 8 points"
expect_test "$W/ref3.json" "$SCALE" measurement.counter.ratio "1" "the reference against itself"
expect_no_test "$W/ref3.json" failed "no lab03 reference test fails"
# The derived formats count the check like any graded test.
run_grade ref3_gs report "$W/ref3.json" --format gradescope -o "$W/ref3.gradescope.json"
expect_rc ref3_gs 0
python3 - "$W/ref3.gradescope.json" "$SCALE" <<'PY' && pass "Gradescope: the check scores 8 / 8, total 68" || fail "Gradescope: the check or the total"
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tests"] if t["name"].startswith(sys.argv[2])]
assert t and t[0]["score"] == 8 and t[0]["max_score"] == 8, t
assert d["score"] == 68, d["score"]
PY
run_grade ref3_junit report "$W/ref3.json" --format junit -o "$W/ref3.xml"
expect_rc ref3_junit 0
expect_not_in "$W/ref3.xml" "<failure" "JUnit: no failure in the lab03 reference"
fake_result ref5 lab05 reference -  # the fake table's grading
expect_rc ref5 0
expect_scored "$W/ref5.json" "$REUSE" "passed 10.0 10.0" "lab05 reference: the data-reuse check's 10 points"
expect_field "$W/ref5.json" score 70 "lab05 reference: 70 points"
expect_field "$W/ref5.json" graded_max_score 70 "lab05 reference: 70 graded here"
expect_test "$W/ref5.json" "$REUSE" measurement.counter.value "128\.875" "the reference's own figure, parsed"

# 4. The correctness tests' hints are judged against the reference's counters on the
#    same data: the uncoalesced fake's keep both figures; lab02's reference, whose
#    strided one-time load and 2-way staging conflicts are its own, gets none.
expect_test_says "$W/unc.json" "matrix_scale, 509 x 33 (tall)" "need [0-9]+ sectors per request; 4 is ideal" "a correctness test keeps the hint"
expect_test_says "$W/unc.json" "matrix_scale, 509 x 33 (tall)" "\(this run: [0-9.]+ global sectors over the fewest needed \(reference on the same data: 1\.[0-9]\)\)" "with the reference's figure on the same data"
fake_result ref2 lab02 reference --no-perf  # the fake table's grading
expect_rc ref2 0
# The report's messages and notes (the program's raw stderr keeps the simulator's lines).
expect_no_message "$W/ref2.json" "uncoalesced|bank conflicts" "lab02's reference: no hint about its own accesses"

# 5. --no-perf leaves the checks out, as every performance test.
fake_result noperf lab03 lab03/uncoalesced_scale --no-perf  # the fake table's grading
expect_rc noperf 0
expect_scored "$W/noperf.json" "$SCALE" "not_graded 0.0 8.0" "--no-perf: the check is not graded"

# 6. A build without the counters' hooks (PARLAB_SIM_CHECK=0, benchmarks): the check is
#    not graded, never failed for want of counts.
PARLAB_SIM_CHECK=0 run_grade plain lab03 "$UNC" --device sim \
  --work-dir "$W/work-plain" --json "$W/plain.json"
expect_rc plain 0
expect_scored "$W/plain.json" "$SCALE" "not_graded 0.0 8.0" "no counters: the check is not graded"
expect_message "$W/plain.json" "the simulator's counters are off" "and says why"
finish
