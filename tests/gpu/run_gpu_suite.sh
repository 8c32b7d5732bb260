#!/usr/bin/env bash
# GPU suite: run on a machine with an NVIDIA GPU (it refuses to run without one).
# Builds parlab for this GPU, runs every test (the GPU labs' e2e tests then use the
# real device), grades each CUDA lab's reference on the GPU, and prints a markdown
# table for docs/performance.md: the device, its measured copy bandwidth and cuBLAS
# SGEMM rate, and every measured reference kernel's time and fraction of them.
#
#   bash tests/gpu/run_gpu_suite.sh [BUILD_DIR] [OUT_DIR]
# Details (JSON results, logs) go to OUT_DIR (default: BUILD_DIR/gpu-suite).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build-gpu}
out=${2:-$build/gpu-suite}
mkdir -p "$out"

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no NVIDIA GPU here (nvidia-smi -L failed); run this on a GPU machine" >&2
  exit 3
fi

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/configure.log" 2>&1
cmake --build "$build" -j"$(nproc)" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }

probe=$("$build/grader/parlab-cuda-probe" --measure)
echo "$probe" >"$out/probe.json"

# Whole test suite on this machine (GPU labs' e2e tests take the GPU path here).
ctest --test-dir "$build" --output-on-failure -j1 >"$out/ctest.log" 2>&1 && ctest_rc=0 || ctest_rc=$?

status=0
for lab in lab02 lab03 lab04 lab05 lab06; do
  "$build/grade" "$lab" --reference --device gpu --json "$out/$lab.json" \
    --markdown "$out/$lab.md" >"$out/$lab.console" 2>&1 || status=1
done

python3 - "$out" "$probe" "$ctest_rc" <<'PY'
import json, sys, pathlib
out, probe, ctest_rc = pathlib.Path(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
print(f"### GPU suite: {probe.get('name')} (compute capability {probe.get('cc')}, "
      f"driver {probe.get('driver')}, runtime {probe.get('runtime')})\n")
print(f"- device-to-device copy bandwidth: **{probe.get('bandwidth_gbs')} GB/s** (best of 10, 1 GiB)")
print(f"- cuBLAS SGEMM 4096^3: **{probe.get('sgemm_gflops')} GFLOP/s** (best of 5)")
print(f"- ctest: {'all passed' if ctest_rc == 0 else 'FAILURES (see ctest.log)'}\n")
print("| lab | test | reference median | baseline median | ratio | achieved | of peak | points |")
print("|---|---|---|---|---|---|---|---|")
for lab in ("lab02", "lab03", "lab04", "lab05", "lab06"):
    f = out / f"{lab}.json"
    if not f.exists():
        print(f"| {lab} | (no result: see {lab}.console) | | | | | | |")
        continue
    r = json.loads(f.read_text())
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
    print(f"| {lab} | **total** | | | | | | **{r['score']:g} / {r['max_score']:g}** |")
    # lab06's driver prints the overlap its pipeline achieved (copies, kernel, hidden).
    for t in r["tests"]:
        for line in t.get("stdout_tail", "").splitlines():
            if line.startswith("overlap:"):
                print(f"| {lab} | {t['name']}: {line} | | | | | | |")
PY
exit $(( status || ctest_rc ))
