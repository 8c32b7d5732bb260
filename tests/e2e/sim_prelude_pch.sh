#!/usr/bin/env bash
# The simulator's prelude, precompiled at build time (sim/CMakeLists.txt), is used by a
# submission's sim build: g++ silently reads the header instead when the precompiled
# one does not match the compile's flags, so a flag changed on one side only would cost
# two thirds of every kernel file's compile and nothing would say so. The grader's own
# compile command, taken from a sim grading's result, is run again with -H, which marks
# the precompiled header it used with "!" (and an unusable one with "x").
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
TOOLCHAIN="$(dirname "$GRADE")/toolchain.json"
pch_dir=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sim"].get("prelude_pch_dir",""))' "$TOOLCHAIN")
[ -n "$pch_dir" ] && pass "toolchain.json names the precompiled prelude's folder" || fail "toolchain.json has no sim.prelude_pch_dir"
[ -f "$pch_dir/parlab_sim/prelude.hpp.gch" ] && pass "the precompiled prelude was built" \
  || fail "no $pch_dir/parlab_sim/prelude.hpp.gch"

run_grade ref lab03 "$PARLAB_SOURCE_DIR/reference/lab03-cuda-kernels" --device sim --no-perf \
  --work-dir "$W/work" --json "$W/ref.json"
expect_rc ref 0
compile=$(result_field "$W/ref.json" build command | tr '&' '\n' | grep -m1 -- ' -c .*kernels\.cu\.cpp')
[[ "$compile" == *" -I$pch_dir "* ]] && pass "the kernel file's compile searches the precompiled prelude first" \
  || fail "the compile command does not name $pch_dir: $compile"
# The command's paths are relative to the grading's work folder (lab03/<hash>), where the
# build stays; -fsyntax-only writes nothing there.
kernel=$(find "$W/work/lab03" -path '*/build/sim/src/sim/kernels.cu.cpp' | head -1)
grading_dir=${kernel%/build/sim/src/sim/kernels.cu.cpp}
used=$(cd "$grading_dir" && eval "${compile/ -c / -fsyntax-only -H -Winvalid-pch -c }" 2>&1 | grep -m1 -- 'prelude\.hpp\.gch')
[[ "$used" == "! $pch_dir/parlab_sim/prelude.hpp.gch" ]] && pass "g++ uses the precompiled prelude in the grader's compile" \
  || fail "the precompiled prelude is not used: ${used:-no .gch line}"
finish
