#!/usr/bin/env bash
# GPU suite: grades every CUDA lab on this machine's GPU from an existing build, so it
# runs on a GPU host that has the CUDA driver but none of parlab's packages (a tree built
# elsewhere and carried over: docs/gpu.md, "Running on a GPU host"). Nothing is rebuilt.
#
#   bash tests/gpu/run_gpu_suite.sh --build DIR [--out DIR] [--runs N] [--labs "lab03 lab04"]
#                                   [--ctest] [--dry-run]
#
#   --build DIR   a configured and built parlab build folder (its toolchain.json and grade)
#   --out DIR     where results go (default: DIR/gpu-suite): per run JSON, markdown and
#                 console logs, probe.json, and table.md, the summary for docs/performance.md
#   --runs N      gradings of each reference (default 5; each skeleton is graded once)
#   --labs LIST   the GPU labs to grade (default: every lab of kind gpu in toolchain.json)
#   --ctest       also run the build's whole test suite (needs the test binaries built)
#   --dry-run     print the commands without running them (works without a GPU)
#
# Every grading uses --device gpu --sandbox require. Exit: 0 every reference at full
# marks, 1 otherwise, 2 bad arguments, 3 no GPU here.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build="" out="" runs=5 labs="" with_ctest=0 dry=0

usage() { echo "run_gpu_suite.sh: $1" >&2; sed -n '6,8p' "$0" | sed 's/^#//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:-}; shift 2 || usage "--build needs a folder" ;;
    --out) out=${2:-}; shift 2 || usage "--out needs a folder" ;;
    --runs) runs=${2:-}; shift 2 || usage "--runs needs a number" ;;
    --labs) labs=${2:-}; shift 2 || usage "--labs needs a list" ;;
    --ctest) with_ctest=1; shift ;;
    --dry-run) dry=1; shift ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[ -n "$build" ] || usage "--build is required (the build folder, e.g. build-gpu)"
[ -f "$build/toolchain.json" ] || usage "--build $build: no toolchain.json there (configure and build parlab first)"
[ -x "$build/grade" ] || usage "--build $build: no grade binary there (cmake --build $build)"
case "$runs" in ''|*[!0-9]*|0) usage "--runs must be a positive integer, got '$runs'" ;; esac
build=$(cd "$build" && pwd)
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
grade_one() {  # LAB NAME ARGS...: one grading, its JSON, markdown and console log
  local lab=$1 name=$2; shift 2
  local cmd=("$build/grade" "$lab" "$@" --device gpu --sandbox require
             --json "$out/$name.json" --markdown "$out/$name.md")
  if [ "$dry" = 1 ]; then echo "+ ${cmd[*]}"; return 0; fi
  local rc=0
  "${cmd[@]}" >"$out/$name.console" 2>&1 || rc=$?
  echo "$rc" >"$out/$name.exit"
  return "$rc"
}
for lab in $labs; do
  for i in $(seq 1 "$runs"); do
    grade_one "$lab" "$lab-reference-$i" --reference || status=1
  done
  # The skeleton compiles and fails its tests (exit 1 expected): graded for the table.
  grade_one "$lab" "$lab-skeleton" "$(read_toolchain lab_dir "$lab")/skeleton" || true
done
[ "$dry" = 1 ] && exit 0

python3 - "$out" "$runs" "$ctest_rc" $labs >"$out/table.md" <<'PY'
import json, sys, pathlib
out, runs, ctest_rc, labs = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
probe = json.loads((out / "probe.json").read_text())
print(f"### GPU suite: {probe.get('name')} (compute capability {probe.get('cc')}, "
      f"driver {probe.get('driver')}, runtime {probe.get('runtime')})\n")
print(f"- device-to-device copy bandwidth: **{probe.get('bandwidth_gbs')} GB/s** (best of 10, 1 GiB)")
print(f"- cuBLAS SGEMM 4096^3: **{probe.get('sgemm_gflops')} GFLOP/s** (best of 5)")
print(f"- ctest: {ctest_rc if ctest_rc != '0' else 'all passed'}\n")
print("| lab | grading | score | exit |")
print("|---|---|---|---|")
def load(name):
    f = out / f"{name}.json"
    return json.loads(f.read_text()) if f.exists() else None
for lab in labs:
    for name in [f"{lab}-reference-{i}" for i in range(1, runs + 1)] + [f"{lab}-skeleton"]:
        r = load(name)
        score = f"{r['score']:g} / {r['max_score']:g}" if r else f"no result (see {name}.console)"
        rc = out / f"{name}.exit"
        print(f"| {lab} | {name.split('-', 1)[1]} | {score} | {rc.read_text().strip() if rc.exists() else ''} |")
print("\n| lab | test (reference, run 1) | reference median | baseline median | ratio | achieved | of peak | points |")
print("|---|---|---|---|---|---|---|---|")
for lab in labs:
    r = load(f"{lab}-reference-1")
    if not r:
        continue
    for t in r["tests"]:
        if t["kind"] != "performance":
            continue
        m, roof = t.get("measurement"), t.get("roofline")
        cand = f"{m['candidate_median_s']*1e3:.3f} ms" if m else "-"
        base = f"{m['baseline'].split(':')[0]} {m['baseline_median_s']*1e3:.3f} ms" if m else "-"
        ratio = f"{m['median_ratio']:.2f}x" if m else "-"
        ach = f"{roof['achieved']:.0f} {roof['unit']}" if roof else "-"
        frac = f"{roof['fraction']*100:.0f}%" if roof else "-"
        print(f"| {lab} | {t['name']} | {cand} | {base} | {ratio} | {ach} | {frac} | "
              f"{t['points']:g} / {t['max_points']:g} ({t['status']}) |")
        for line in t.get("stdout_tail", "").splitlines():
            if line.startswith("overlap:"):  # lab06's driver: the overlap its pipeline achieved
                print(f"| {lab} | {t['name']}: {line} | | | | | | |")
PY
cat "$out/table.md"
[ "$ctest_rc" = 0 ] || [ "$ctest_rc" = skipped ] || status=1
exit $status
