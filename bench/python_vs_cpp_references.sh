#!/usr/bin/env bash
# Benchmark (not a test): each lab's Python reference beside its C++ reference, graded
# one right after the other (`grade LAB --reference`, then with `--language python`,
# on the device the grader picks: the simulators without a GPU), and per test the
# times read from the two result.json files: the median time of the timed call as the
# drivers report it (a performance test's measurement, the reference as the candidate)
# and the test's wall time in the grading (every run of it, start-up included). Where
# the Python track maps a test to a smaller dataset ([tracks.python] datasets in
# lab.toml) the row says so: those times are not comparable.
#   bash bench/python_vs_cpp_references.sh [BUILD_DIR] [OUT_DIR] [LABS]
# Defaults: build BUILD_DIR/pyrefs "lab01 lab02 lab03". Run from the repository root.
set -euo pipefail
build=${1:-build}
out=${2:-$build/pyrefs}
labs=${3:-lab01 lab02 lab03}
grade="$build/grade"
[ -x "$grade" ] || { echo "python_vs_cpp_references.sh: no grader at $grade (build first)" >&2; exit 2; }
mkdir -p "$out"
chmod 755 "$out"  # children may run as an unprivileged user (docs/sandbox.md)

echo "# Python against C++ references: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
for lab in $labs; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$grade" "$lab" --reference --work-dir "$out/work" --json "$out/side-$lab-cpp.json" >"$out/side-$lab-cpp.log" 2>&1 || true
  "$grade" "$lab" --reference --language python --work-dir "$out/work" --json "$out/side-$lab-python.json" >"$out/side-$lab-python.log" 2>&1 || true
  echo
  echo "## $lab (load average $load before, $(cut -d' ' -f1 /proc/loadavg) after)"
  python3 - "$out/side-$lab-cpp.json" "$out/side-$lab-python.json" <<'PY'
import json, sys
cpp, py = (json.load(open(p)) for p in sys.argv[1:3])
def median_s(t):
    m = t.get("measurement")
    return m["candidate_median_s"] if m and m.get("ratios") else None
def fmt(s):
    return "-" if s is None else f"{s:.4f} s"
for r in (cpp, py):
    print(f"{r.get('track', 'cpp')}: {r['score']:g} / {r['graded_max_score']:g} ({r['max_score']:g}), "
          f"{r['seconds']:.1f} s, device {r.get('device', {}).get('mode', 'cpu')}")
print()
print("| test | C++ timed call (median) | Python timed call (median) | Python / C++ | C++ test wall | Python test wall | dataset |")
print("|---|---|---|---|---|---|---|")
by_name = {t["name"]: t for t in py["tests"]}
for c in cpp["tests"]:
    p = by_name.get(c["name"])
    if p is None:
        continue
    cm, pm = median_s(c), median_s(p)
    ratio = f"{pm / cm:.1f}x" if cm and pm else "-"
    same = c["dataset"] == p["dataset"] or c["dataset"].startswith("fresh") and p["dataset"].startswith("fresh")
    data = c["dataset"].split("@")[0] if same else f"C++ {c['dataset']}, Python {p['dataset']}"
    status = "" if c["status"] == p["status"] == "passed" else f" ({c['status']} / {p['status']})"
    print(f"| {c['name']}{status} | {fmt(cm)} | {fmt(pm)} | {ratio} | {c['seconds']:.2f} s | "
          f"{p['seconds']:.2f} s | {data} |")
PY
done
