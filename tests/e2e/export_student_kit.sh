#!/usr/bin/env bash
# `grade export student LAB... --out kit.tar.gz` (docs/release.md): the kit unpacks
# into one folder, has its own README (no dead links), .dockerignore and short
# dependency list, holds no reference source, builds with its own README's
# commands, and grades: the skeleton fails (1), a correct solution passes against the
# prebuilt reference (0).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/kit_lib.bash"
W="$E2E_WORK"

run_grade export export student lab01 --out "$W/kit.tar.gz"
expect_rc export 0
mkdir "$W/unpacked" && tar -xzf "$W/kit.tar.gz" -C "$W/unpacked" || fail "kit.tar.gz does not unpack"
# One top-level folder, named like the archive (issue 28).
[ "$(ls -A "$W/unpacked")" = kit ] && pass "the kit unpacks into one folder, kit/" || fail "top level of the kit: $(ls -A "$W/unpacked" | head -5 | tr '\n' ' ')"
mv "$W/unpacked/kit" "$W/kit"
expect_in "$W/kit/README.md" "student kit: lab01" "the kit's own README names the labs"
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
if readelf -S "$W/kit/prebuilt-references/lab01_reference" | grep -q '\.symtab'; then fail "the reference is not stripped"; else pass "the reference is stripped (no symbol table)"; fi
# The simulator references a CUDA lab's kit carries (stripped copies of these) name their
# sources by file, never by the instructor's paths (issue 27).
for exe in "$(dirname "$GRADE")"/labs/lab0*_reference_sim; do
  strip --strip-all -o "$W/stripped" "$exe"
  # text: no byte of the executable may hold the path
  if strings "$W/stripped" | grep -qF "$PARLAB_SOURCE_DIR"; then
    fail "$(basename "$exe") holds a path of the source tree: $(strings "$W/stripped" | grep -F "$PARLAB_SOURCE_DIR" | head -2 | tr '\n' ' ')"
  else pass "$(basename "$exe"), stripped, holds no path of the source tree"; fi
done
[ -e "$W/kit/labs/lab03-cuda-kernels" ] && fail "a lab not asked for is in the kit" || pass "only the chosen labs"
[ -e "$W/kit/tests" ] || [ -e "$W/kit/bench" ] && fail "tests/ or bench/ (reference sources) in the kit" || pass "no tests/ or bench/"
no_reference_source_in "$W/kit"

if build_kit "$W/kit"; then pass "the kit configures and builds"; else
  fail "the kit does not build"; tail -30 "$W/kit-configure.log" "$W/kit-build.log" >&2; finish; fi
# text: CMake's configure output (no JSON): the kit's CMakeLists says which references it uses
expect_in "$W/kit-configure.log" "student kit: references are the prebuilt executables" "the kit's build uses the prebuilt references"
GRADE="$W/kit/build/grade"
run_grade skeleton lab01 --no-perf --work-dir "$W/work"
expect_rc skeleton 1
mkdir "$W/solution" && cp "$PARLAB_SOURCE_DIR"/reference/lab01-multiprocessing/* "$W/solution/"
run_grade solution lab01 "$W/solution" --no-perf --work-dir "$W/work" --json "$W/solution.json"
expect_rc solution 0
expect_score "$W/solution.json" 60 100 "a correct solution passes the correctness tests in the kit"
expect_field "$W/solution.json" graded_max_score 60 "... which are all it graded (60 of 100)"

# --reference in a kit says why not (no empty path), exit 2.
run_grade kitref lab01 --reference --no-perf --work-dir "$W/work"
expect_rc kitref 2
# text: a usage error, printed before any report exists
expect_in "$W/kitref.err" "^grade: error: --reference grades the reference's source, which this build does not have" "--reference in a kit explained"
# Exporting needs the instructor's tree: a kit cannot export itself.
run_grade again export student lab01 --out "$W/again.tar.gz"
expect_rc again 3
finish
