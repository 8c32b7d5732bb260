#!/usr/bin/env bash
# The compile step holds like a run: submitted links, FIFOs and files the student
# cannot read are refused by name and never read; the compiler cannot see the
# reference build products; a compile-time bomb ends as "the compiler ran out of
# memory/time", quickly.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
BOMBS="$PARLAB_SOURCE_DIR/tests/fakes/compile"
SKELETON="$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton/file_stats.cpp"
TOOLCHAIN="$(dirname "$GRADE")/toolchain.json"
SECRET_MARK="ROOT-ONLY-SECRET-$$"

never_shows_secret() {  # NAME: the secret is in no output and no report
  # text: the secret must appear in no byte of any output or report
  if grep -rqs -- "$SECRET_MARK" "$W/$1.out" "$W/$1.err" "$W/$1.json" "$W/$1.md"; then
    fail "$1: the secret file's content leaked into the output"
  else pass "$1: the secret never appears"; fi
}

# A root-only secret (when root; otherwise a file only we can read).
printf '%s\n' "$SECRET_MARK" >"$W/secret.txt"
chmod 0600 "$W/secret.txt"

# 1. file_stats.cpp is a symbolic link to the secret.
mkdir -p "$W/symlink"
ln -s "$W/secret.txt" "$W/symlink/file_stats.cpp"
run_grade symlink lab01 "$W/symlink" --no-perf --work-dir "$W/work" --json "$W/symlink.json" \
  --markdown "$W/symlink.md"
expect_rc symlink 1
expect_field "$W/symlink.json" build.ok false "a link fails the build"
expect_field "$W/symlink.json" build.diagnostics.0.message "file_stats.cpp is a symbolic link; submit the file itself.*" "a link is refused by name"
never_shows_secret symlink

# 2. A header that links to the secret (headers are staged too).
mkdir -p "$W/header_link"
cp "$SKELETON" "$W/header_link/file_stats.cpp"
ln -s "$W/secret.txt" "$W/header_link/answers.hpp"
run_grade header_link lab01 "$W/header_link" --no-perf --work-dir "$W/work" --json "$W/header_link.json"
expect_rc header_link 1
expect_field "$W/header_link.json" build.diagnostics.0.message "answers.hpp is a symbolic link.*" "a linked header is refused by name"
never_shows_secret header_link

# 3. As root: a hard link to the secret in a folder a student owns is read with the
#    student's rights, so it cannot be read.
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$W/hardlink"
  if ln "$W/secret.txt" "$W/hardlink/file_stats.cpp" 2>/dev/null; then
    chown 65534 "$W/hardlink"  # the folder only: the link is still root's 0600 file
    run_grade hardlink lab01 "$W/hardlink" --no-perf --work-dir "$W/work" --json "$W/hardlink.json"
    expect_rc hardlink 1
    expect_field "$W/hardlink.json" build.diagnostics.0.message \
      "file_stats.cpp cannot be read with the permissions of the submission folder's owner.*" "a hard link to a root-only file is read as the folder's owner"
    never_shows_secret hardlink
  else
    echo "skip: hard links not possible here"
  fi
else
  echo "skip: the hard-link check needs root (the grader drops to the folder owner only as root)"
fi

# 4. A FIFO named like the source must not hang the grader.
mkdir -p "$W/fifo"
mkfifo "$W/fifo/file_stats.cpp"
timeout 60 "$GRADE" lab01 "$W/fifo" --no-perf --work-dir "$W/work" --json "$W/fifo.json" >"$W/fifo.out" 2>"$W/fifo.err"
echo $? >"$W/fifo.rc"
expect_rc fifo 1
expect_field "$W/fifo.json" build.diagnostics.0.message "file_stats.cpp is a FIFO.*" "a FIFO is refused by name"

# 5. A compile-time memory bomb ends as "ran out of memory", well within the limits.
start=$(date +%s)
run_grade dev_zero lab01 "$BOMBS/dev_zero" --no-perf --work-dir "$W/work" --json "$W/dev_zero.json"
took=$(( $(date +%s) - start ))
expect_rc dev_zero 1
expect_field "$W/dev_zero.json" build.diagnostics.0.message "the compiler ran out of memory.*" "#include /dev/zero: the compiler ran out of memory"
[ "$took" -lt 120 ] && pass "dev_zero ended in ${took}s" || fail "dev_zero took ${took}s"

# 6. A template bomb (distinct instantiations double per level) ends the same way:
#    memory or CPU time, whichever comes first; never a hang past the wall limit.
start=$(date +%s)
run_grade template_bomb lab01 "$BOMBS/template_bomb" --no-perf --work-dir "$W/work" --json "$W/template_bomb.json"
took=$(( $(date +%s) - start ))
expect_rc template_bomb 1
expect_field "$W/template_bomb.json" build.diagnostics.0.message "the compiler ran out of (memory|time).*" "a template bomb: the compiler ran out of memory or time"
[ "$took" -lt 200 ] && pass "template_bomb ended in ${took}s" || fail "template_bomb took ${took}s"

# 8. A submission's header cannot take the place of the simulator's or the harness's:
#    the compiler searches the submission's folder first, so each is refused by name
#    before anything is compiled (a sim build of lab03, a host build of lab01).
LAB03_REF="$PARLAB_SOURCE_DIR/reference/lab03-cuda-kernels/kernels.cu"
for shadow in parlab_sim/prelude.hpp parlab_sim/runtime.hpp cuda_runtime.h \
              parlab/harness/gpu/cuda_check.hpp sim/helpers.cuh; do
  name="shadow_$(echo "$shadow" | tr '/.' '__')"
  mkdir -p "$W/$name/$(dirname "$shadow")"
  cp "$LAB03_REF" "$W/$name/kernels.cu"
  echo '#pragma once' >"$W/$name/$shadow"
  run_grade "$name" lab03 "$W/$name" --device sim --work-dir "$W/work" --json "$W/$name.json"
  expect_rc "$name" 1
  expect_field "$W/$name.json" build.ok false "$shadow in a sim submission fails the build"
  expect_field "$W/$name.json" build.log "(.*/)?${shadow//./\\.}: .*(provides a header of this name|folder named 'sim/').*" \
    "the refusal names $shadow and why"
done
mkdir -p "$W/shadow_timer/parlab/harness"
cp "$SKELETON" "$W/shadow_timer/file_stats.cpp" && echo '#pragma once' >"$W/shadow_timer/parlab/harness/timer.hpp"
run_grade shadow_timer lab01 "$W/shadow_timer" --no-perf --work-dir "$W/work" --json "$W/shadow_timer.json"
expect_field "$W/shadow_timer.json" build.log "parlab/harness/timer\\.hpp: the lab harness provides .*" \
  "a host build refuses the harness's timer.hpp by name"

# 7. The compiler cannot see the reference build products, the reference sources or
#    another lab's build (bubblewrap only: without it the view is not enforced).
ref_exe=$(sed -n 's/.*"reference_exe" *: *"\([^"]*lab01[^"]*\)".*/\1/p' "$TOOLCHAIN" | head -1)
build_dir=$(sed -n 's/.*"build_dir" *: *"\([^"]*\)".*/\1/p' "$TOOLCHAIN" | head -1)
ref_src="$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing/file_stats.cpp"
[ -f "$ref_exe" ] || fail "toolchain.json names no lab01 reference executable ($ref_exe)"
sandbox=$(result_field "$W/dev_zero.json" host sandbox)
if [ "$sandbox" = bubblewrap ]; then
  mkdir -p "$W/peek"
  {
    for p in "$ref_exe" "$ref_src" "$build_dir/toolchain.json" "$build_dir/sim/libparlab_sim.a"; do
      [ -e "$p" ] || continue
      printf '#if __has_include("%s")\n#error "the compiler can see %s"\n#endif\n' "$p" "$p"
    done
    cat "$SKELETON"
  } >"$W/peek/file_stats.cpp"
  run_grade peek lab01 "$W/peek" --no-perf --work-dir "$W/work" --json "$W/peek.json"
  expect_field "$W/peek.json" build.ok true "the peeking submission builds: no reference file is visible to the compiler"
  [[ "$(result_field "$W/peek.json" build log)" != *"the compiler can see"* ]] \
    && pass "the build log names no visible reference file" || fail "the compiler saw: $(result_field "$W/peek.json" build log | grep -m3 'can see')"
  mkdir -p "$W/incbin"
  { printf '#include "%s"\n' "$ref_exe"; cat "$SKELETON"; } >"$W/incbin/file_stats.cpp"
  run_grade incbin lab01 "$W/incbin" --no-perf --work-dir "$W/work" --json "$W/incbin.json"
  expect_rc incbin 1
  expect_field "$W/incbin.json" build.ok false "including the reference executable fails the build"
  expect_field "$W/incbin.json" build.log ".*No such file or directory.*" "including the reference executable fails: not visible"
else
  echo "skip: the compile view checks need bubblewrap (this machine: $sandbox)"
fi
finish
