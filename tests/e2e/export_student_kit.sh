#!/usr/bin/env bash
# `grade export student LAB... --out kit.tar.gz` (docs/release.md): the kit unpacks
# into one folder, has its own README (no dead links), .dockerignore and short
# dependency list, holds no reference source, no prebuilt reference (a kit of every
# lab) holds a path of the source or build tree, it builds with its own README's
# commands, and grades: the skeleton fails (1), a correct solution passes against the
# prebuilt reference (0); lab02's Python reference passes its CPU tests in the kit, and
# the kit holds the Python tracks' skeletons, driver and harness, and their references as
# bytecode only.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/kit_lib.bash"
W="$E2E_WORK"

run_grade export export student lab01 lab02 --out "$W/kit.tar.gz"
expect_rc export 0
mkdir "$W/unpacked" && tar -xzf "$W/kit.tar.gz" -C "$W/unpacked" || fail "kit.tar.gz does not unpack"
# One top-level folder, named like the archive.
[ "$(ls -A "$W/unpacked")" = kit ] && pass "the kit unpacks into one folder, kit/" || fail "top level of the kit: $(ls -A "$W/unpacked" | head -5 | tr '\n' ' ')"
mv "$W/unpacked/kit" "$W/kit"
expect_in "$W/kit/README.md" "student kit: lab01, lab02" "the kit's own README names the labs"
expect_in "$W/kit/README.md" "cp -r labs/lab02-kernel-regression/skeleton/python my-lab02-python" "the README says where the Python skeleton is"
# The Python tracks: skeleton, driver and harness as source, the reference as bytecode only.
for f in labs/lab01-multiprocessing/skeleton/python/file_stats.py labs/lab02-kernel-regression/driver.py \
         harness/python/parlab_harness/driver.py harness/python/launcher.py \
         prebuilt-references/lab01_python_reference/file_stats.pyc prebuilt-references/lab02_python_reference/regression.pyc; do
  [ -f "$W/kit/$f" ] && pass "the kit has $f" || fail "the kit lacks $f"
done
[ -z "$(find "$W/kit/prebuilt-references" -name '*.py')" ] && pass "no Python source among the prebuilt references" || fail "Python source in prebuilt-references"
# text: no byte of the bytecode may hold the path; docstrings (-OO) are gone
# grep reads all its input (no -q): with pipefail, a -q match would end the pipe early,
# strings would die of SIGPIPE, and the pipe's failure would hide the match.
if strings "$W"/kit/prebuilt-references/*_python_reference/*.pyc | grep -F -e "$PARLAB_SOURCE_DIR" -e "$(dirname "$GRADE")" >/dev/null; then
  fail "the Python reference's bytecode holds a path of the source or build tree"
else pass "the Python reference's bytecode holds no path of the source or build tree"; fi
expect_not_in "$W/kit/README.md" "preset tests|ctest" "the kit's README has no test-suite commands"
# Every relative link of the README leads to a file of the kit.
python3 - "$W/kit" <<'PY' && pass "no dead links in the kit's README" || fail "dead links in the kit's README"
import os, re, sys
kit = sys.argv[1]
links = re.findall(r"\]\(([^)#]+)\)", open(os.path.join(kit, "README.md")).read())
dead = [l for l in links if "://" not in l and not os.path.exists(os.path.join(kit, l))]
print(dead, file=sys.stderr) if dead else None
sys.exit(1 if dead or not links else 0)
PY
# text: a kit file, its text is the product
expect_in "$W/kit/.dockerignore" "^build/" "a .dockerignore leaves builds out"
expect_not_in "$W/kit/containers/install-deps.sh" "chromium|slurm-wlm|catch2|ccache" "the kit's dependency list has no test tools"
expect_in "$W/kit/containers/install-deps.sh" "libtomlplusplus-dev" "the kit's dependency list has what the build needs"
[ -x "$W/kit/prebuilt-references/lab01_reference" ] && pass "the reference is a prebuilt executable" || fail "no prebuilt lab01_reference"
# text: the executable's section list (readelf) is the fact
if readelf -S "$W/kit/prebuilt-references/lab01_reference" | grep '\.symtab' >/dev/null; then fail "the reference is not stripped"; else pass "the reference is stripped (no symbol table)"; fi
# No prebuilt reference of any lab (a kit of all of them, as exported: stripped) holds a
# path of the source or the build tree (the references are compiled with
# -fmacro-prefix-map, CMakeLists.txt). A compiler cache with CCACHE_BASEDIR in the
# build's environment makes those paths relative by itself, so see below too.
BUILD_DIR=$(dirname "$GRADE")
run_grade export_all export student $(ls "$PARLAB_SOURCE_DIR/labs" | grep -o '^lab[0-9]*' | sort -u) --out "$W/all.tar.gz"
expect_rc export_all 0
mkdir "$W/all" && tar -xzf "$W/all.tar.gz" -C "$W/all" || fail "all.tar.gz does not unpack"
mapfile -t refs < <(find "$W/all/all/prebuilt-references" -maxdepth 1 -type f)
[ "${#refs[@]}" -ge 6 ] && pass "a kit of every lab has ${#refs[@]} prebuilt references" || fail "prebuilt references of every lab: ${refs[*]}"
for exe in "${refs[@]}"; do
  # text: no byte of the executable may hold the path
  leaked=$(strings "$exe" | grep -F -e "$PARLAB_SOURCE_DIR" -e "$BUILD_DIR" | sort -u | head -3 | tr '\n' ' ')
  if [ -n "$leaked" ]; then fail "prebuilt $(basename "$exe") holds a path of the source or build tree: $leaked"
  else pass "prebuilt $(basename "$exe") holds no path of the source or build tree"; fi
done
# Whatever the build's environment was: a reference's sources compiled again with the
# build's own commands (Ninja's, without a compiler launcher) name no such path either.
# lab03: its driver and reference call PARLAB_CUDA_CHECK (__FILE__) and its harness
# headers; the reference's .cu through nvcc where the build has one.
mkdir "$W/recompiled"
ninja -C "$BUILD_DIR" -t compdb >"$W/compdb.json" 2>"$W/compdb.err" || fail "ninja -t compdb in $BUILD_DIR: $(head -2 "$W/compdb.err")"
python3 - "$W/compdb.json" "$W/recompiled" "$PARLAB_SOURCE_DIR" "$BUILD_DIR" <<'PY' || fail "recompiled reference objects hold a path of the source or build tree (see above)"
import json, os, re, shlex, subprocess, sys
compdb, out_dir, source_dir, build_dir = sys.argv[1:5]
wanted = [r"/parlab_lab03_driver_sim\.dir/.*driver\.cpp\.o$", r"/lab03_reference\.dir/.*kernels\.cu\.o$"]
entries = [e for e in json.load(open(compdb)) if any(re.search(w, e["output"]) for w in wanted)]
if not entries:
    sys.exit(print("no compile command of lab03's driver or reference in the build", file=sys.stderr) or 1)
leaks = 0
for n, e in enumerate(entries):
    args = shlex.split(e["command"])
    # A compiler launcher is not this check's: `cmake -E env VAR=VALUE... ccache` (the
    # build's own, CMakeLists.txt) or a bare ccache from the environment.
    if os.path.basename(args[0]) == "cmake" and args[1:3] == ["-E", "env"]:
        args = args[3:]
        while args and "=" in args[0] and not args[0].startswith("-"):
            args = args[1:]
    if os.path.basename(args[0]) in ("ccache", "sccache"):
        args = args[1:]
    obj = os.path.join(out_dir, f"{n}.o")
    for flag, value in (("-o", obj), ("-MF", obj + ".d"), ("-MT", obj)):
        if flag in args:
            args[args.index(flag) + 1] = value
    run = subprocess.run(args, cwd=e["directory"], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"recompiling {e['output']} failed:\n{run.stderr[-2000:]}", file=sys.stderr)
        leaks += 1
        continue
    # As in a kit: line tables (-g1, -g) keep whole paths for addr2line, strip drops them.
    subprocess.run(["strip", "--strip-debug", obj], check=True)
    data = open(obj, "rb").read()
    found = [d for d in (source_dir, build_dir) if d.encode() in data]
    print(f"{'FAIL' if found else 'ok'}: {e['output']}, recompiled, holds {'paths under ' + ' and '.join(found) if found else 'no path of the source or build tree'}",
          file=sys.stderr if found else sys.stdout)
    leaks += bool(found)
sys.exit(1 if leaks else 0)
PY
[ -e "$W/kit/labs/lab03-cuda-kernels" ] && fail "a lab not asked for is in the kit" || pass "only the chosen labs"
[ -e "$W/kit/tests" ] || [ -e "$W/kit/bench" ] && fail "tests/ or bench/ (reference sources) in the kit" || pass "no tests/ or bench/"
no_reference_source_in "$W/kit"

if build_kit "$W/kit"; then pass "the kit configures and builds"; else
  fail "the kit does not build"; tail -n 30 "$W/kit-configure.log" "$W/kit-build.log" >&2; finish; fi
# text: CMake's configure output (no JSON): the kit's CMakeLists says which references it uses
expect_in "$W/kit-configure.log" "student kit: references are the prebuilt executables" "the kit's build uses the prebuilt references"
GRADE="$W/kit/build/grade"
run_grade skeleton lab01 --no-perf --work-dir "$W/work"
expect_rc skeleton 1
mkdir "$W/solution" && cp "$PARLAB_SOURCE_DIR"/reference/lab01-multiprocessing/*.?pp "$W/solution/"
run_grade solution lab01 "$W/solution" --no-perf --work-dir "$W/work" --json "$W/solution.json"
expect_rc solution 0
expect_score "$W/solution.json" 60 100 "a correct solution passes the correctness tests in the kit"
expect_field "$W/solution.json" graded_max_score 60 "... which are all it graded (60 of 100)"
# lab02's Python reference, graded by the kit (CPU tests: Numba's simulator is too slow
# for the GPU tests' datasets here, as in python_lab02.sh).
mkdir "$W/py_solution" && cp "$PARLAB_SOURCE_DIR"/reference/lab02-kernel-regression/python/*.py "$W/py_solution/"
run_grade py_solution lab02 "$W/py_solution" --device none --no-perf --work-dir "$W/work" --json "$W/py_solution.json"
expect_rc py_solution 3   # GPU tests not graded with --device none, as in cpu_tests_in_gpu_lab.sh
expect_field "$W/py_solution.json" track python "the kit grades lab02 on its Python track"
expect_no_test "$W/py_solution.json" "failed|partial|skipped" "the Python reference fails no test in the kit"
expect_test "$W/py_solution.json" "predict_parallel: 2000 x 500, all cores" status passed "its CPU correctness tests pass"
# The kit's Python reference program (the Python track's speed baseline) runs from its
# bytecode: recorded in toolchain.json, and a task on two small files gives the values.
py_ref=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["labs"]["lab01"].get("python_reference_exe", ""))' "$W/kit/build/toolchain.json")
[ -x "$py_ref" ] && pass "the kit's build records lab01's Python reference program" || fail "no Python reference program in the kit's toolchain.json: '$py_ref'"
mkdir -p "$W/py_data" && printf 'timestamp,sensor,value\n1,0,1.5\n2,1,2.5\n' >"$W/py_data/a.csv" && printf 'timestamp,sensor,value\n3,0,4.0\n' >"$W/py_data/b.csv"
if "$py_ref" --task parallel_dynamic --param workers=2 --dataset "$W/py_data" --out "$W/py_out" >"$W/py_ref.log" 2>&1; then
  pass "the Python reference runs from its bytecode"
else fail "the kit's Python reference failed: $(tail -n 5 "$W/py_ref.log")"; fi
expect_field "$W/py_out/status.json" status ok "... and its task ends ok"

# --reference in a kit says why not (no empty path), exit 2.
run_grade kitref lab01 --reference --no-perf --work-dir "$W/work"
expect_rc kitref 2
# text: a usage error, printed before any report exists
expect_in "$W/kitref.err" "^grade: error: --reference grades the reference's source, which this build does not have" "--reference in a kit explained"
# Exporting needs the instructor's tree: a kit cannot export itself.
run_grade again export student lab01 --out "$W/again.tar.gz"
expect_rc again 3
finish
