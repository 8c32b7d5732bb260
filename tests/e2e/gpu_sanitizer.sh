#!/usr/bin/env bash
# GPU correctness as strict as the simulator: on a GPU, with the toolkit's
# compute-sanitizer, a kernel with no bounds check and one whose two halves wait at
# different barriers must lose the tests the simulator fails them on, in its words
# with file:line. Skips (77) without a GPU or without compute-sanitizer, saying which.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
toolchain=$(dirname "$GRADE")/toolchain.json
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no NVIDIA GPU here (nvidia-smi -L failed); this test needs one"; exit 77
fi
sanitizer=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("compute_sanitizer",""))' "$toolchain")
if [ -z "$sanitizer" ]; then
  echo "skipped: this build's CUDA toolkit has no compute-sanitizer (toolchain.json)"; exit 77
fi

fake_submission lab05 lab05/no_bounds_check
run_grade oob lab05 "$FAKE_DIR" --device gpu --no-perf --work-dir "$W/work" --json "$W/oob.json"
expect_rc oob 1
expect_message "$W/oob.json" "invalid memory (read|write) in kernel naive_no_bounds.* at matmul.cu:[0-9]+: out-of-bounds" \
  "no bounds check: memcheck's out-of-bounds access named with its line"

fake_submission lab05 lab05/divergent_barrier
run_grade div lab05 "$FAKE_DIR" --device gpu --no-perf --work-dir "$W/work" --json "$W/div.json"
expect_rc div 1
expect_some_test "$W/div.json" status failed "a test of the divergent barrier fails on the GPU"
expect_message "$W/div.json" "barrier in divergent code|did not finish cleanly|deadlock|hang" \
  "two barriers for one block: failed on the GPU as in the simulator"

run_grade ref lab05 --reference --device gpu --no-perf --work-dir "$W/work" --json "$W/ref.json"
expect_rc ref 0
expect_no_test "$W/ref.json" "failed|error" "the reference fails no test"
expect_no_message "$W/ref.json" "compute-sanitizer" "the reference is clean under every tool"
[ "$failures" = 0 ] || exit 1
