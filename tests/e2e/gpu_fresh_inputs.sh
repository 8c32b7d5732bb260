#!/usr/bin/env bash
# No replay in GPU timing (docs/gpu.md, "Timing on the GPU"): in a timed run (a warm-up
# and several repetitions) every repetition after the first gets new input content and
# its output is checked, so a product kept from an earlier call fails. Without a GPU the
# lab05 driver runs the same timing loop on the simulator: the reference's executable
# and a fake that copies back the product of its first call on the same pointers
# (tests/fakes/lab05/replay_by_pointer.patch) are run by hand with --warmup 1 --repeat 3.
# Both pass every correctness test (one call each); only the timed run tells them apart,
# in the kernel task and in the round trip; lab04's reductions and lab06's host round trips
# and pipeline likewise, each with a replaying fake.
# lab03's reference (element-wise, round-trip and stencil tasks; the C++ and the Python
# track) and lab06's (transform) run the same way: each timed
# repetition's sampled elements must match the host's recomputation (a check that
# blamed a correct kernel would fail every honest submission on a GPU).
# The executables are the ones the fake table's gradings built.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

fake_result ref lab05 reference -  # the fake table's grading
expect_rc ref 0
fake_result replay lab05 lab05/replay_by_pointer --no-perf  # the fake table's grading
expect_rc replay 0
expect_no_test "$W/replay.json" failed "a single call of the replaying fake is right: every correctness test passes"
REPLAY_SRC="$FAKE_DIR/matmul.cu"

# built_from SOURCE [LAB FILE]: the sim executable the fixture built from SOURCE (its copy
# of FILE; lab05's matmul.cu unless given) and from every other file of SOURCE's folder
# it copied: a fake that changes lab04's histogram.cu keeps the reference's sum_reduce.cu,
# so one file alone could name that fake's build as the reference's.
built_from() {
  local src lab=${2:-lab05} file=${3:-matmul.cu} copied same
  for src in "$FAKE_RESULTS"/work/*/"$lab"/*/build/sim/src/"$file"; do
    same=1
    for copied in "${src%/"$file"}"/*; do
      [ -f "$copied" ] || continue
      cmp -s "$copied" "$(dirname "$1")/$(basename "$copied")" || { same=0; break; }
    done
    if [ "$same" = 1 ]; then echo "${src%/src/$file}/bin/${lab}_submission"; return; fi
  done
  echo "FAIL: no build of $1 and its folder under $FAKE_RESULTS/work" >&2; exit 1
}
# A small product from the fixture's dataset cache (a few hundred elements: quick in sim).
DATASET=$(python3 - "$FAKE_RESULTS" <<'PY'
import glob, json, sys
for d in sorted(glob.glob(sys.argv[1] + "/work/*/dataset-cache/matmul_pair-*")):
    a = [x["count"] for x in json.load(open(d + "/manifest.json"))["arrays"] if x["name"] == "a"]
    if a and 100 <= a[0] <= 5000: print(d); break
PY
)
[ -n "$DATASET" ] || { fail "no lab05 dataset of 100 to 5000 elements in the fixture's cache"; exit 1; }

timed_run() {  # NAME EXECUTABLE [TASK DATASET [ARG...]]: lab05's tiled task unless given, 1 warm-up and 3 timed repetitions
  local name=$1 exe=$2 task=${3:-tiled} dataset=${4:-$DATASET}
  shift $(($# < 4 ? $# : 4))
  mkdir -p "$W/$name.outdir"
  "$exe" --task "$task" --dataset "$dataset" --out "$W/$name.outdir" --warmup 1 --repeat 3 "$@" \
    >"$W/$name.out" 2>"$W/$name.err"
  echo $? >"$W/$name.rc"
}
timed_run ref_timed "$(built_from "$PARLAB_SOURCE_DIR/reference/lab05-tiled-matmul/matmul.cu")"
expect_rc ref_timed 0
expect_field "$W/ref_timed.outdir/status.json" status ok "the reference computes every timed repetition's new inputs"
timed_run replay_timed "$(built_from "$REPLAY_SRC")"
expect_rc replay_timed 1
expect_field "$W/replay_timed.outdir/status.json" status error "the replaying fake's timed run is an error"
expect_field "$W/replay_timed.outdir/status.json" message \
  'sgemm_tiled returned a result that does not fit its input on timed repetition 1 .*' \
  "the replayed product fails the first timed repetition, named"
expect_field "$W/replay_timed.outdir/status.json" message '.*C at row [0-9]+, col [0-9]+ is .*' \
  "the element that differed is named"
# The round trip (copies and product timed as one) carries new A and B too: replaying
# the product earned "GPU with transfers" its points on an H200 before it did.
timed_run ref_trip "$(built_from "$PARLAB_SOURCE_DIR/reference/lab05-tiled-matmul/matmul.cu")" tiled_roundtrip
expect_rc ref_trip 0
expect_field "$W/ref_trip.outdir/status.json" status ok "the reference's round trips fit every timed repetition's new inputs"
timed_run replay_trip "$(built_from "$REPLAY_SRC")" tiled_roundtrip
expect_rc replay_trip 1
expect_field "$W/replay_trip.outdir/status.json" message \
  'sgemm_tiled returned a result that does not fit its input on timed repetition 1 .*' \
  "a replayed product fails the round trip's first timed repetition, named"

# lab03's reference: every task that takes fresh inputs, on a dataset of its kind.
fake_result ref3 lab03 reference -  # the fake table's grading
expect_rc ref3 0
LAB03=$(built_from "$PARLAB_SOURCE_DIR/reference/lab03-cuda-kernels/kernels.cu" lab03 kernels.cu)
# lab03_dataset ARRAY...: the largest cached kernel_inputs dataset of at most 5000
# elements holding every ARRAY (more than one element: a check of one index would not
# show which element it read).
lab03_dataset() {
  python3 - "$FAKE_RESULTS" "$@" <<'PY'
import glob, json, sys
fits = []
for d in sorted(glob.glob(sys.argv[1] + "/work/*/dataset-cache/kernel_inputs-*")):
    arrays = {x["name"]: x["count"] for x in json.load(open(d + "/manifest.json"))["arrays"]}
    if set(sys.argv[2:]) <= set(arrays) and arrays[sys.argv[2]] <= 5000:
        fits.append((arrays[sys.argv[2]], d))
if fits: print(max(fits)[1])
PY
}
for task_arrays in "vector_add a b" "vector_add_roundtrip a b" "saxpy x y alpha" "matrix_scale matrix alpha" "heat_step grid r"; do
  read -r task arrays <<<"$task_arrays"
  # shellcheck disable=SC2086  # the array names are words
  dataset=$(lab03_dataset $arrays)
  if [ -z "$dataset" ]; then fail "no cached lab03 dataset with $arrays"; continue; fi
  timed_run "ref3_$task" "$LAB03" "$task" "$dataset"
  expect_rc "ref3_$task" 0
  expect_field "$W/ref3_$task.outdir/status.json" status ok "lab03's reference $task passes every fresh repetition's check"
done

# A vector_add that copies back the c of its first call on the same pointers: right in
# one call, stale in the kernel task and in the round trip (which uploads new a and b
# every timed trip, not the dataset again).
fake_result replay3 lab03 lab03/vector_add_replay_by_pointer --no-perf  # the fake table's grading
expect_rc replay3 0
expect_no_test "$W/replay3.json" failed "a single call of the replaying vector_add is right: every correctness test passes"
dataset=$(lab03_dataset a b)
REPLAY3=$(built_from "$FAKE_DIR/kernels.cu" lab03 kernels.cu)
for task in vector_add vector_add_roundtrip; do
  timed_run "replay3_$task" "$REPLAY3" "$task" "$dataset"
  expect_rc "replay3_$task" 1
  expect_field "$W/replay3_$task.outdir/status.json" message \
    'vector_add returned a result that does not fit its input on timed repetition 1 .*c at index [0-9]+ is .*' \
    "a replaying vector_add fails $task's first timed repetition, naming the element"
done

# lab03's Python track (parlab_harness/fresh_inputs.py), in Numba's simulator: the Python
# reference program through every task that takes fresh inputs, and a copy of it whose
# vector_add copies back the c of its first call, which fails both vector_add tasks.
PY_REF=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["labs"]["lab03"]["python_reference_exe"])' \
  "$(dirname "$GRADE")/toolchain.json")
rm -rf "$W/py_replay" && cp -r "$(dirname "$PY_REF")" "$W/py_replay" && chmod -R u+w "$W/py_replay"
python3 - "$W/py_replay/solution/kernels.py" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
honest = "def vector_add(a, b, c, n):\n"
assert honest in text, "the Python reference's vector_add is not where this fake expects it"
replay = ("_first_c = None\n\n\ndef vector_add(a, b, c, n):\n    global _first_c\n"
          "    if _first_c is not None and _first_c.shape[0] == n:\n        c.copy_to_device(_first_c)\n        return\n"
          "    _vector_add(a, b, c, n)\n    _first_c = c.copy_to_host()\n\n\ndef _vector_add(a, b, c, n):\n")
open(path, "w").write(text.replace(honest, replay))
PY
for task_arrays in "vector_add a b" "vector_add_roundtrip a b" "saxpy x y alpha" "matrix_scale matrix alpha" "heat_step grid r"; do
  read -r task arrays <<<"$task_arrays"
  # shellcheck disable=SC2086  # the array names are words
  dataset=$(lab03_dataset $arrays)
  timed_run "py3_$task" "$PY_REF" "$task" "$dataset"
  expect_rc "py3_$task" 0
  expect_field "$W/py3_$task.outdir/status.json" status ok "lab03's Python reference $task passes every fresh repetition's check"
done
for task in vector_add vector_add_roundtrip; do
  timed_run "py3_replay_$task" "$W/py_replay/$(basename "$PY_REF")" "$task" "$(lab03_dataset a b)"
  expect_rc "py3_replay_$task" 1
  expect_field "$W/py3_replay_$task.outdir/status.json" message \
    'StaleResultError: vector_add returned a result that does not fit its input on timed repetition 1 .*c at index [0-9]+ is .*' \
    "a Python vector_add that replays its first c fails $task's first timed repetition, naming the element"
done

# lab04's reference: every reduction on new content (the whole result checked), and a
# sum that replays its first result by pointer, which fails the first timed repetition.
fake_result ref4 lab04 reference --no-perf  # the fake table's grading
expect_rc ref4 0
fake_result replay4 lab04 lab04/sum_replay_by_pointer --no-perf  # the fake table's grading
expect_rc replay4 0
expect_no_test "$W/replay4.json" failed "a single call of the replaying sum is right: every correctness test passes"
REPLAY4_SRC="$FAKE_DIR/sum_reduce.cu"
LAB04=$(built_from "$PARLAB_SOURCE_DIR/reference/lab04-atomics-reductions/sum_reduce.cu" lab04 sum_reduce.cu)
dataset=$(python3 - "$FAKE_RESULTS" <<'PY'
import glob, json, sys
for d in sorted(glob.glob(sys.argv[1] + "/work/*/dataset-cache/reduction_data-*")):
    a = [x["count"] for x in json.load(open(d + "/manifest.json"))["arrays"] if x["name"] == "keys"]
    if a and 1000 <= a[0] <= 20000: print(d); break
PY
)
if [ -z "$dataset" ]; then fail "no cached lab04 dataset of 1000 to 20000 elements"; else
  for task in sum max_block max_atomic histogram; do
    timed_run "ref4_$task" "$LAB04" "$task" "$dataset"
    expect_rc "ref4_$task" 0
    expect_field "$W/ref4_$task.outdir/status.json" status ok "lab04's reference $task fits every timed repetition's new content"
  done
  timed_run replay4_sum "$(built_from "$REPLAY4_SRC" lab04 sum_reduce.cu)" sum "$dataset"
  expect_rc replay4_sum 1
  expect_field "$W/replay4_sum.outdir/status.json" message \
    'sum returned a result that does not fit its input on timed repetition 1 .*the sum is .* where these values .whole numbers: float adds them exactly in any order. give .*' \
    "a replayed sum fails the first timed repetition, with both sums"
fi

# lab06's reference: transform (y = x (1 - 0.9^k) / (1 - 0.9) per element) on new values.
fake_result ref6 lab06 reference -  # the fake table's grading
expect_rc ref6 0
LAB06=$(built_from "$PARLAB_SOURCE_DIR/reference/lab06-streams/streams.cu" lab06 streams.cu)
dataset=$(python3 - "$FAKE_RESULTS" <<'PY'
import glob, json, sys
for d in sorted(glob.glob(sys.argv[1] + "/work/*/dataset-cache/kernel_inputs-*")):
    a = [x["count"] for x in json.load(open(d + "/manifest.json"))["arrays"] if x["name"] == "a"]
    if a and 100 <= a[0] <= 20000: print(d); break
PY
)
if [ -z "$dataset" ]; then fail "no cached dataset with an array a of 100 to 20000 elements"; else
  timed_run ref6_transform "$LAB06" transform "$dataset" --param iterations=50
  expect_rc ref6_transform 0
  expect_field "$W/ref6_transform.outdir/status.json" status ok \
    "lab06's reference transform passes every fresh repetition's check"
  # The round trips and the pipeline take host memory: new host input, host_out sampled.
  for task in pageable pinned pipelined; do
    timed_run "ref6_$task" "$LAB06" "$task" "$dataset" --param iterations=50
    expect_rc "ref6_$task" 0
    expect_field "$W/ref6_$task.outdir/status.json" status ok "lab06's reference $task fits every timed repetition's new host input"
  done
  fake_result replay6 lab06 lab06/pipeline_replay_by_pointer --no-perf  # the fake table's grading
  expect_rc replay6 0
  expect_no_test "$W/replay6.json" failed "a single call of the replaying pipeline is right: every correctness test passes"
  timed_run replay6_pipelined "$(built_from "$FAKE_DIR/streams.cu" lab06 streams.cu)" pipelined "$dataset" --param iterations=50
  expect_rc replay6_pipelined 1
  expect_field "$W/replay6_pipelined.outdir/status.json" message \
    'pipelined returned a result that does not fit its input on timed repetition 1 .*host_out at index [0-9]+ is .*' \
    "a pipeline that replays its host output fails the first timed repetition, naming the element"
fi
finish
