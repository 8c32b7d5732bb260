#!/usr/bin/env bash
# Sim mode's checks out of reach of the submission (docs/sandbox.md, "Nothing
# the submission can observe decides a verdict"). Fakes made from the reference at test
# time (tests/fakes/sim_trust/make_submission.sh), each trying to steer a check from
# inside its own process, get none of the points they target:
#   - a constructor that unsets the simulator's variables: the race check still runs;
#   - a constructor of priority 101 (before the simulator's own): refused at build time;
#   - a kernel marked no_sanitize through a token paste, x86 assembly in a plain header:
#     refused at build time (the instrumentation would not see their accesses);
#   - a kernel right only when block 0 starts first, safe when it detects the old
#     reversed-order re-run (an atomic probe): fails in the seeded orders;
#   - matrix_scale coalesced only when the counting variable is in the environment, or
#     only in the blocks the counters used to sample: the coalescing check earns nothing;
#   - a forged counters file, a removed findings file: the sealed lines no longer verify;
#   - a call to the runtime's sealing function, a memcpy of its own: not linkable, refused;
#   - the runtime's state found through the symbol table and cleared (a plain write,
#     /proc/self/mem, mprotect first), the public load and store hooks' code made
#     writable and patched to return at once, a racy store made by a memcpy of a length
#     known at run time, a re-exec without settings, the key looked for
#     in the environment, /proc/self/environ and /proc/self/fd, a forked child that stops
#     at inline PTX for its parent to exit 92 ("needs a GPU"): none scores more than
#     the honest racy control; three of them again at `--sandbox off` (as root).
# That the lab03 reference keeps the coalescing check's points is lab03_sim.sh's claim:
# this script reads nothing of the fake table, so it runs beside the table's gradings,
# not after them (it was the suite's last parallel test, alone on one core for 380 s).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
MAKE="$PARLAB_SOURCE_DIR/tests/fakes/sim_trust/make_submission.sh"

HIST="histogram: prime size, 256 bins"
SUM="sum: prime size, mixed signs"
SCALE="matrix_scale bandwidth (2D grid)"
# A check of one or two tests grades those alone (--only; the score comparisons of 11
# grade every test): the coalescing check with the correctness test it reads.
SCALE_ONLY=(--only "$SCALE" --only "matrix_scale, 509 x 33 (tall)")

# 1. Unsetting the variables from a constructor changes nothing: they were read and
#    removed before it ran, and the racy histogram still fails on its race.
bash "$MAKE" unset_checks "$W/unset"
run_grade unset lab04 "$W/unset" --device sim --no-perf --only "$HIST" --work-dir "$W/work" --json "$W/unset.json"
expect_rc unset 1
expect_status "$W/unset.json" "$HIST" failed "the racy histogram fails although its constructor unset the checks"
expect_test_says "$W/unset.json" "$HIST" "data race on shared array .local." "the race check ran and named the array"

# 2. A constructor that would run before the simulator's: the build is refused, saying why.
bash "$MAKE" early_constructor "$W/early"
run_grade early lab04 "$W/early" --device sim --no-perf --work-dir "$W/work" --json "$W/early.json"
expect_rc early 1
expect_field "$W/early.json" build.ok false "the early constructor fails the build"
expect_field "$W/early.json" build.diagnostics.0.message ".*code that runs before the simulator starts \(\.init_array\.00101.*" "the early constructor is named"
expect_field "$W/early.json" score 0 "no points"

# 2b. Every other start-up path the loader offers, spelled past a name-reading check:
#     each refused at build time, none scores more than its honest racy control.
expect_refused_at_build() {  # KIND MESSAGE-REGEX WHAT: the fake's build fails, saying so
  bash "$MAKE" "$1" "$W/$1"
  run_grade "$1" lab04 "$W/$1" --device sim --no-perf --work-dir "$W/work" --json "$W/$1.json"
  expect_field "$W/$1.json" build.ok false "$1 fails the build"
  expect_field "$W/$1.json" build.diagnostics.0.message "$2" "$1 $3"
  expect_field "$W/$1.json" score 0 "$1: no points"
}
for kind in early_long_priority early_ctors early_init_section early_orphan_init_array early_ifunc_header; do
  expect_refused_at_build "$kind" ".*code that runs before the simulator starts.*" "is named as start-up code"
done

# 2c. Code the check build's instrumentation would leave out, each spelled past a check
#     that reads the files as written: a no_sanitize attribute made by a token paste in a
#     plain header, x86 inline assembly in a plain header (nvcc's check reads PTX there).
#     Each is refused at build time, naming the line (both got 60 of 60 before).
expect_refused_at_build no_sanitize_pasted ".*histogram.cu:[0-9]+: the attribute no_sanitize turns off the instrumentation.*" \
  "is named at the kernel's line"
expect_refused_at_build header_assembly ".*quiet.hpp:6: inline assembly .asm. in a file the simulator does not rewrite.*" \
  "is named at the header's line"

# 3. Safe only in the old reversed-order re-run (an atomic probe of the first block to
#    start), right in the usual order: every run now has its own seeded order.
bash "$MAKE" order_probe "$W/probe"
run_grade probe lab04 "$W/probe" --device sim --no-perf --only "$SUM" --work-dir "$W/work" --json "$W/probe.json"
expect_rc probe 1
expect_status "$W/probe.json" "$SUM" failed "the order-probing sum fails"
expect_test_says "$W/probe.json" "$SUM" "sum\\[0\\]: expected" "with the first difference"

# 4. Coalesced only when the counting variable is visible: it never is.
bash "$MAKE" counting_by_environment "$W/envcount"
run_grade envcount lab03 "$W/envcount" --device sim "${SCALE_ONLY[@]}" --work-dir "$W/work" --json "$W/envcount.json"
expect_scored "$W/envcount.json" "$SCALE" "failed 0.0 8.0" "coalesced-when-counted earns nothing on the coalescing check"
expect_status "$W/envcount.json" "matrix_scale, 509 x 33 (tall)" passed "its answers are right"

# 5. Coalesced only in the first two blocks: the memory-access counters count every
#    block.
bash "$MAKE" counting_in_sampled_blocks "$W/sampled"
run_grade sampled lab03 "$W/sampled" --device sim "${SCALE_ONLY[@]}" --work-dir "$W/work" --json "$W/sampled.json"
expect_scored "$W/sampled.json" "$SCALE" "failed 0.0 8.0" "coalesced-in-blocks-0-and-1 earns nothing on the coalescing check"

# 7. A forged counters file (every request's sectors set to the ideal, consistent with
#    the rest of the line): the grader reads what the runtime sent through its report
#    channel while the run went on, never the file, so the counts are the kernel's own
#    and the coalescing check earns nothing.
bash "$MAKE" forged_counters "$W/forged"
run_grade forged lab03 "$W/forged" --device sim "${SCALE_ONLY[@]}" --work-dir "$W/work" --json "$W/forged.json"
expect_scored "$W/forged.json" "$SCALE" "failed 0.0 8.0" "the forged counters file earns nothing on the coalescing check"
expect_status "$W/forged.json" "matrix_scale, 509 x 33 (tall)" passed "its answers are right"

# 8. The findings file removed at exit: the race was sent through the report channel
#    when it was found, and stays found.
bash "$MAKE" hidden_findings "$W/hidden"
run_grade hidden lab04 "$W/hidden" --device sim --no-perf --only "$HIST" --work-dir "$W/work" --json "$W/hidden.json"
expect_rc hidden 1
expect_status "$W/hidden.json" "$HIST" failed "the racy histogram fails although it removed its findings"
expect_test_says "$W/hidden.json" "$HIST" "data race on .local." "the race removed from the file is still found"

# 9. Calling the runtime's sealing function by name: the grader's copy keeps it private.
bash "$MAKE" calls_the_sealer "$W/sealer"
run_grade sealer lab04 "$W/sealer" --device sim --no-perf --work-dir "$W/work" --json "$W/sealer.json"
expect_rc sealer 1
expect_field "$W/sealer.json" build.ok false "the call to the sealing function fails the build"
expect_field "$W/sealer.json" build.log ".*undefined reference to .parlab_sim::sealed::append.*" "the sealing function cannot be linked"
expect_field "$W/sealer.json" score 0 "no points"

# 10. A memcpy of its own, which the runtime calls too: refused at build time, named.
bash "$MAKE" replaces_memcpy "$W/memcpy"
run_grade memcpy lab04 "$W/memcpy" --device sim --no-perf --work-dir "$W/work" --json "$W/memcpy.json"
expect_rc memcpy 1
expect_field "$W/memcpy.json" build.ok false "a memcpy of its own fails the build"
expect_field "$W/memcpy.json" build.diagnostics.0.message ".*defines memcpy, which the simulator runtime uses itself.*" "the replaced memcpy is named"
expect_field "$W/memcpy.json" score 0 "no points"

# 11. The runtime locked before the submission runs (docs/sandbox.md, "The runtime locks
#     itself before the submission runs"): each class of tampering, graded once, scores no
#     more than the same racy histogram left honest.
score_of() { result_field "$1" score; }
expect_at_most_control() {  # REPORT WHAT
  if awk -v a="$(score_of "$1")" -v b="$(score_of "$W/honest.json")" 'BEGIN { exit !(a + 0 <= b + 0) }'
  then pass "$2"; else fail "$2: $1 scores $(score_of "$1"), the honest racy control $(score_of "$W/honest.json")"; fi
}
bash "$MAKE" honest_race "$W/honest"
run_grade honest lab04 "$W/honest" --device sim --no-perf --work-dir "$W/work" --json "$W/honest.json"
expect_test_says "$W/honest.json" "$HIST" "data race on .local." "the control's race is found"
for kind in locked_state_symtab locked_state_proc_mem locked_state_mprotect patched_hooks memcpy_store \
            reexec_without_settings stolen_key key_from_memory forked_unsupported_stop; do
  bash "$MAKE" "$kind" "$W/$kind"
  run_grade "$kind" lab04 "$W/$kind" --device sim --no-perf --work-dir "$W/work" --json "$W/$kind.json"
  expect_rc "$kind" 1
  expect_at_most_control "$W/$kind.json" "$kind scores no more than its honest racy control"
  expect_status "$W/$kind.json" "$HIST" failed "$kind: the racy histogram fails"
done
# The state found through the symbol table is sealed: a write faults, an mprotect first
# changes nothing; so is every loaded object's code, so the hooks cannot be patched;
# /proc/self/mem cannot be opened for writing, so the race stays found;
# the copy's exec is refused; no key is anywhere the submission can read it.
expect_test_says "$W/locked_state_symtab.json" "$HIST" "SIGSEGV" "the write to the sealed page faults"
expect_test_says "$W/locked_state_mprotect.json" "$HIST" "SIGSEGV" "the write after mprotect faults"
expect_test_says "$W/locked_state_proc_mem.json" "$HIST" "data race on .local." "the race survives /proc/self/mem"
expect_test_says "$W/patched_hooks.json" "$HIST" "data race on .local." "the hooks' code is sealed: the race stays found"
expect_test_says "$W/memcpy_store.json" "$HIST" "data race on .local. between histogram.cu:[0-9]+ and" \
  "a memcpy's store reaches the race check (the runtime's checked copy)"
expect_test_says "$W/reexec_without_settings.json" "$HIST" "exited with status 127" "the re-exec is refused"
expect_test_says "$W/stolen_key.json" "$HIST" "data race on .local." "no key was found: the race stays found"
# A child's stop at a feature the simulator does not run is the child's: the parent's
# exit with its status is a plain exit, and no test is left out as "needs a GPU".
expect_test_says "$W/forked_unsupported_stop.json" "$HIST" "exited with status 92, a status the simulator stops with" \
  "a child's stop at inline PTX is not the run's"
expect_status "$W/forked_unsupported_stop.json" "$SUM" failed "no test is left out by a child's stop (the sum fails)"
# The key read out of the runtime's memory: its forged closing record carries a good seal
# (the grader reads it as out of sequence, not as unsealed), yet the race the runtime had
# already sent through the report channel cannot be taken back.
expect_test_says "$W/key_from_memory.json" "$HIST" "altered: line [0-9]+ of its findings file is out of sequence" \
  "the key taken from memory seals a forged record, which cannot hide the race sent before it"

# The same locks without bubblewrap (`--sandbox off`: no namespaces, the host's /proc):
# they are the runtime's own, taken before the submission runs, so the classes whose
# way in could differ there (the key in /proc and the descriptors, /proc/self/mem, an
# exec) still find the race or are refused. The racy test alone (--only), as root only
# (the fallback runs each submission as a pool uid).
if [ "$(id -u)" = 0 ]; then
  for kind in stolen_key locked_state_proc_mem reexec_without_settings; do
    run_grade "${kind}_off" lab04 "$W/$kind" --device sim --no-perf --only "$HIST" --sandbox off \
      --work-dir "$W/work" --json "$W/${kind}_off.json"
    expect_status "$W/${kind}_off.json" "$HIST" failed "$kind at --sandbox off: the racy histogram fails"
  done
  expect_test_says "$W/stolen_key_off.json" "$HIST" "data race on .local." "--sandbox off: no key found, the race stays found"
  expect_test_says "$W/locked_state_proc_mem_off.json" "$HIST" "data race on .local." \
    "--sandbox off: the race survives /proc/self/mem"
  expect_test_says "$W/reexec_without_settings_off.json" "$HIST" "exited with status 127" "--sandbox off: the re-exec is refused"
else
  echo "note: the --sandbox off checks need a root grader (the uid pool): not run"
fi

finish
