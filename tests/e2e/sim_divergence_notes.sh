#!/usr/bin/env bash
# Warp-divergence notes appear only where they would change what a
# student should do, name the branch, and are said once:
#   - lab03's reference and a correct handout-style solution (tests/fakes/lab03/
#     handout_style: 16 x 16 heat blocks, where the reference's are 32 x 8) get no note,
#     under two seeds (the sampled blocks are drawn from the run's seed);
#   - the same solution with a divergent branch for nothing in saxpy gets one note, at
#     the branch's line (not the host launch line), points kept, said to be about speed.
# Every grading is the fake-gradings fixture's (fake_result: tests/fakes/grade_table.sh
# grades each line of tests/agreement/verdicts.tsv and tests/fakes/gradings.tsv once per
# suite run; the seeds are lines of their own there).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"

fake_result ref lab03 reference --no-perf
expect_rc_or_busy ref 0
expect_no_message "$W/ref.json" "simulator: warp divergence|simulator found: warp divergence" "the reference gets no divergence note"

for seed in 11 12; do
  fake_result "hand$seed" lab03 lab03/handout_style "--no-perf --seed $seed"
  expect_rc "hand$seed" 0
  expect_field "$W/hand$seed.json" score 60 "a handout-style solution: every correctness point (seed $seed)"
  expect_no_message "$W/hand$seed.json" "simulator: warp divergence|simulator found: warp divergence" \
    "a handout-style solution gets no divergence note (seed $seed)"
done

fake_result grat lab03 hint_causes/lab03_gratuitous_branch --no-perf
branch=$(grep -n "out\[i\] = alpha \* x\[i\] + y\[i\];" "$FAKE_DIR/kernels.cu" | head -1 | cut -d: -f1)
launch=$(grep -n "saxpy_kernel<<<" "$FAKE_DIR/kernels.cu" | cut -d: -f1)
expect_rc grat 0
expect_field "$W/grat.json" score 60 "a gratuitous branch keeps every correctness point"
expect_message "$W/grat.json" "^simulator found: warp divergence in kernel saxpy_kernel at kernels.cu:$branch " \
  "the note names the divergent branch's line ($branch)"
expect_no_message "$W/grat.json" "kernels.cu:$launch\b" "no divergence note or figure names the host launch line ($launch)"
expect_no_output "$W/grat.json" "kernels.cu:$launch\b" "nor does the simulator's own output ($launch)"
notes=$(result_field "$W/grat.json" notes | python3 -c 'import json, sys
print(sum(n.startswith("simulator found: warp divergence") for n in json.load(sys.stdin)))')
if [ "$notes" = 1 ]; then pass "one divergence note for the kernel"; else fail "$notes divergence notes, expected 1"; fi
expect_message "$W/grat.json" "points unchanged: about speed; the answers are right" "the message says it is about speed"
expect_no_message "$W/grat.json" "simulator: warp divergence in kernel heat_step_kernel" "the heat kernel's boundary branches get no note"
finish
