#!/usr/bin/env bash
# A GPU lab's tests marked device = "cpu" (lab.toml) run whatever --device chose:
# with --device none they are built for the host and graded while every GPU test is
# skipped; the reference exits 3 (GPU tests skipped), a failing submission exits 1.
# The lab: a copy of lab03 whose vector_add correctness tests are declared CPU tests (their task
# runs on the CPU in the host build), found through a copied toolchain.json.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
toolchain_dir=$(dirname "$GRADE")
cp -r "$PARLAB_SOURCE_DIR/labs/lab03-cuda-kernels" "$W/lab03"
python3 - "$W/lab03/lab.toml" "$toolchain_dir/toolchain.json" "$W/toolchain.json" "$W/lab03" <<'PY'
import json, sys
spec, tc_in, tc_out, lab_dir = sys.argv[1:]
blocks = open(spec).read().split("[[tests]]")
marked = 0
for i, b in enumerate(blocks):
    if 'kind = "correctness"' in b and 'task = "vector_add"\n' in b:
        blocks[i] = b.replace('task = "vector_add"\n', 'task = "vector_add"\ndevice = "cpu"\n')
        marked += 1
assert marked >= 4, marked
open(spec, "w").write("[[tests]]".join(blocks))
tc = json.load(open(tc_in))
tc["labs"]["lab03"]["dir"] = lab_dir
json.dump(tc, open(tc_out, "w"), indent=1)
PY
common=(--toolchain "$W/toolchain.json" --device none --no-perf --work-dir "$W/work")

run_grade ref lab03 --reference "${common[@]}" --json "$W/ref.json"
expect_rc ref 3
expect_test "$W/ref.json" "vector_add, n = 100003 (prime)" status passed "CPU test of a GPU lab runs without a GPU"
expect_test "$W/ref.json" "saxpy, n = 1" status not_graded "GPU tests are not graded here"
# The GPU tests not graded for one reason share one row: "N tests: ...  not graded".
# text: the folding of the console's rows is the subject (result.json keeps one entry per test)
expect_in "$W/ref.out" "[0-9]+ tests: .* +not graded " "GPU tests not graded folded into one row"
expect_test_says "$W/ref.json" "saxpy, n = 1" "not graded here: no GPU tests run" "the reason given"
expect_no_test "$W/ref.json" failed "no reference test fails"
expect_field "$W/ref.json" score "[1-9][0-9.]*" "the CPU tests' points"

run_grade skel lab03 "${common[@]}" --json "$W/skel.json"
expect_rc skel 1
expect_test "$W/skel.json" "vector_add, n = 1" status failed "the skeleton's CPU test fails"
expect_test "$W/skel.json" "saxpy, n = 1" status not_graded "its GPU tests are still not graded"
finish
