#!/usr/bin/env bash
# GPU suite: grades every CUDA lab on this machine's GPU from an existing build, so it
# runs on a GPU host that has the CUDA driver but none of parlab's packages (a tree built
# elsewhere and carried over: docs/gpu.md, "Running on a GPU host"). Nothing is rebuilt.
#
#   bash tests/gpu/run_gpu_suite.sh --build DIR [--out DIR] [--runs N] [--labs "lab03 lab04"]
#                                   [--fakes DIR] [--sanitizer PATH] [--budget SECONDS]
#                                   [--sandbox MODE] [--toolchain FILE] [--no-references]
#                                   [--ctest] [--dry-run]
#
#   --build DIR   a configured and built parlab build folder (its toolchain.json and grade)
#   --out DIR     where results go (default: DIR/gpu-suite): per run JSON, markdown and
#                 console logs, probe.json, and table.md, the summary for docs/performance.md
#   --runs N      gradings of each reference (default 5; each skeleton is graded once)
#   --labs LIST   the GPU labs to grade (default: every lab of kind gpu in toolchain.json)
#   --fakes DIR   also grade the submissions tests/gpu/make_gpu_fakes.sh wrote to DIR
#                 (GPU timing cheats and honest controls, tests/gpu/fakes.tsv)
#   --sanitizer PATH  compute-sanitizer for a build whose toolchain.json has none: each
#                 reference is graded --no-perf without and with it (its findings, its cost)
#   --budget S    start no grading after S seconds (a lent GPU's lease); what was left
#                 out is listed in table.md. Order: each reference once, the skeletons,
#                 the fakes, the sanitizer pairs, then the remaining reference runs
#   --sandbox M   require (default) | auto | off, passed to every grading
#   --toolchain F a toolchain.json passed to every grading but the sanitizer pairs (e.g.
#                 the build's with compute_sanitizer named: the references graded with it)
#   --no-references  grade no reference and no skeleton (a second pass over the fakes)
#   --ctest       also run the build's whole test suite (needs the test binaries built)
#   --dry-run     print the commands without running them (works without a GPU)
#
# Every grading uses --device gpu. Exit: 0 every reference at full marks, 1 otherwise,
# 2 bad arguments, 3 no GPU here.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build="" out="" runs=5 labs="" with_ctest=0 dry=0 fakes="" sanitizer="" budget="" sandbox=require
toolchain="" references=1
started=$(date +%s)

usage() { echo "run_gpu_suite.sh: $1" >&2; sed -n '6,8p' "$0" | sed 's/^#//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:-}; shift 2 || usage "--build needs a folder" ;;
    --out) out=${2:-}; shift 2 || usage "--out needs a folder" ;;
    --runs) runs=${2:-}; shift 2 || usage "--runs needs a number" ;;
    --labs) labs=${2:-}; shift 2 || usage "--labs needs a list" ;;
    --fakes) fakes=${2:-}; shift 2 || usage "--fakes needs a folder" ;;
    --sanitizer) sanitizer=${2:-}; shift 2 || usage "--sanitizer needs a path" ;;
    --budget) budget=${2:-}; shift 2 || usage "--budget needs seconds" ;;
    --sandbox) sandbox=${2:-}; shift 2 || usage "--sandbox needs a mode" ;;
    --toolchain) toolchain=${2:-}; shift 2 || usage "--toolchain needs a file" ;;
    --no-references) references=0; shift ;;
    --ctest) with_ctest=1; shift ;;
    --dry-run) dry=1; shift ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[ -n "$build" ] || usage "--build is required (the build folder, e.g. build-gpu)"
[ -f "$build/toolchain.json" ] || usage "--build $build: no toolchain.json there (configure and build parlab first)"
[ -x "$build/grade" ] || usage "--build $build: no grade binary there (cmake --build $build)"
case "$runs" in ''|*[!0-9]*|0) usage "--runs must be a positive integer, got '$runs'" ;; esac
case "$budget" in ''|*[!0-9]*) [ -z "$budget" ] || usage "--budget must be whole seconds, got '$budget'" ;; esac
case "$sandbox" in require|auto|off) ;; *) usage "--sandbox must be require, auto or off, got '$sandbox'" ;; esac
[ -z "$fakes" ] || [ -f "$fakes/list.tsv" ] || usage "--fakes $fakes: no list.tsv there (tests/gpu/make_gpu_fakes.sh writes it)"
[ -z "$sanitizer" ] || [ -x "$sanitizer" ] || usage "--sanitizer $sanitizer: not an executable"
[ -z "$toolchain" ] || [ -f "$toolchain" ] || usage "--toolchain $toolchain: no such file"
build=$(cd "$build" && pwd)
[ -z "$fakes" ] || fakes=$(cd "$fakes" && pwd)
out=${out:-$build/gpu-suite}

# Paths come from the build's own record, never from a fixed layout.
read_toolchain() { python3 - "$build/toolchain.json" "$@" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
what = sys.argv[2]
if what == "probe":
    print(t.get("cuda_probe") or "")
elif what == "gpu_labs":
    print(" ".join(k for k, v in sorted(t["labs"].items()) if "sim_reference_exe" in v))
elif what == "lab_dir":
    print(t["labs"][sys.argv[3]]["dir"])
PY
}
all_gpu=$(read_toolchain gpu_labs)
labs=${labs:-$all_gpu}
for lab in $labs; do
  case " $all_gpu " in *" $lab "*) ;; *) usage "--labs: '$lab' is not a GPU lab of this build ($all_gpu)" ;; esac
done
probe=$(read_toolchain probe)

run() {  # prints the command; runs it unless --dry-run
  echo "+ $*"
  [ "$dry" = 1 ] || "$@"
}

if [ "$dry" = 0 ]; then
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "skipped: no NVIDIA GPU here (nvidia-smi -L failed); run this on a GPU machine" >&2
    exit 3
  fi
  [ -n "$probe" ] && [ -x "$probe" ] || { echo "run_gpu_suite.sh: this build has no parlab-cuda-probe (configured without nvcc?)" >&2; exit 2; }
fi
mkdir -p "$out"

if [ "$dry" = 1 ]; then echo "+ $probe --measure > $out/probe.json"; else "$probe" --measure >"$out/probe.json"; fi

ctest_rc=skipped
if [ "$with_ctest" = 1 ]; then
  if [ "$dry" = 1 ]; then echo "+ ctest --test-dir $build --output-on-failure -j1"; ctest_rc=0
  else ctest --test-dir "$build" --output-on-failure -j1 >"$out/ctest.log" 2>&1 && ctest_rc=0 || ctest_rc=$?; fi
fi

status=0
: >"$out/left-out.txt"
over_budget() { [ -n "$budget" ] && [ $(($(date +%s) - started)) -ge "$budget" ]; }
grade_one() {  # LAB NAME ARGS...: one grading, its JSON, markdown, console log, exit, wall
  local lab=$1 name=$2; shift 2
  local own=()  # --toolchain for every grading that names none of its own
  [ -z "$toolchain" ] || [[ " $* " == *" --toolchain "* ]] || own=(--toolchain "$toolchain")
  local cmd=("$build/grade" "$lab" "$@" "${own[@]}" --device gpu --sandbox "$sandbox"
             --json "$out/$name.json" --markdown "$out/$name.md")
  if [ "$dry" = 1 ]; then echo "+ ${cmd[*]}"; return 0; fi
  if over_budget; then echo "$name" >>"$out/left-out.txt"; return 0; fi
  local rc=0 t0 t1
  t0=$(date +%s.%N)
  "${cmd[@]}" >"$out/$name.console" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  echo "$rc" >"$out/$name.exit"
  python3 -c "print(f'{$t1 - $t0:.1f}')" >"$out/$name.wall"
  echo "$name: exit $rc, $(cat "$out/$name.wall") s" >&2
  return "$rc"
}
# Most important first, so a lease that ends early still answers the main question.
if [ "$references" = 1 ]; then
  for lab in $labs; do
    grade_one "$lab" "$lab-reference-1" --reference || status=1
  done
  for lab in $labs; do
    # The skeleton compiles and fails its tests (exit 1 expected): graded for the table.
    grade_one "$lab" "$lab-skeleton" "$(read_toolchain lab_dir "$lab")/skeleton" || true
  done
fi
if [ -n "$fakes" ]; then
  while IFS=$'\t' read -r name lab fake grading expect; do
    case " $labs " in *" $lab "*) ;; *) continue ;; esac
    extra=()
    case "$grading" in
      no-perf) extra=(--no-perf) ;;
      only:*) extra=(--only "${grading#only:}") ;;  # one speed test and what it needs
    esac
    grade_one "$lab" "fake-$name" "$fakes/$name" "${extra[@]}" || true
  done <"$fakes/list.tsv"
fi
if [ -n "$sanitizer" ] && [ "$references" = 1 ]; then
  # The same toolchain with compute-sanitizer named: each passed correctness test runs
  # again under it (docs/gpu.md). Without it first, so the difference is its cost.
  python3 - "$build/toolchain.json" "$sanitizer" "$out/toolchain-sanitizer.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); t["compute_sanitizer"] = sys.argv[2]
json.dump(t, open(sys.argv[3], "w"), indent=1)
PY
  for lab in $labs; do
    grade_one "$lab" "$lab-noperf-plain" --reference --no-perf || true
    grade_one "$lab" "$lab-noperf-sanitizer" --reference --no-perf --toolchain "$out/toolchain-sanitizer.json" || true
  done
fi
[ "$references" = 1 ] || runs=1
for i in $(seq 2 "$runs"); do
  for lab in $labs; do
    grade_one "$lab" "$lab-reference-$i" --reference || status=1
  done
done
[ "$dry" = 1 ] && exit 0

python3 "$src/tests/gpu/suite_table.py" "$out" "$runs" "$ctest_rc" "$fakes" $labs >"$out/table.md"
cat "$out/table.md"
[ "$ctest_rc" = 0 ] || [ "$ctest_rc" = skipped ] || status=1
exit $status
