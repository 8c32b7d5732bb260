#!/usr/bin/env bash
# Benchmark (not a test) for the observed-time rule (docs/scoring.md): grades the
# lab01 reference RUNS times and each forged-speed submission of tests/fakes/forged
# once, and prints per grading the performance points and, per performance test, the
# reported ratio, the observed cap and whether the timing was trusted. Run from the
# repository root after building:  bash bench/forged_vs_honest.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-5}
grade="$build/grade"
scratch=$(mktemp -d /tmp/parlab-forged.XXXXXX)
chmod 755 "$scratch"  # children may run as an unprivileged user (docs/sandbox.md)
trap 'rm -rf "$scratch"' EXIT

summary() {  # NAME JSON
  python3 - "$1" "$2" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
perf = [t for t in r["tests"] if t["kind"] == "performance"]
cells = []
for t in perf:
    m = t.get("measurement") or {}
    o = m.get("observed") or {}
    cells.append("%s: %.2fx reported, cap %.2fx, %s, %s/%s pts" % (
        t["name"].split()[0], o.get("reported_ratio", 0), o.get("cap", 0),
        "trusted" if o.get("timing_trusted", True) else "NOT trusted", t["points"], t["max_points"]))
print("| %s | %s | %s |" % (name, r["score"], " ; ".join(cells)))
PY
}

echo "# forged vs honest: $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "| submission | score | performance tests |"
echo "|---|---|---|"
for i in $(seq 1 "$runs"); do
  "$grade" lab01 --reference --work-dir "$scratch/work" --json "$scratch/ref$i.json" >/dev/null 2>&1 || true
  summary "reference #$i" "$scratch/ref$i.json"
done
for lie in clock_interposer constructor_work timings_writer; do
  dir="$scratch/$lie"
  bash tests/fakes/forged/make_submission.sh "$lie" "$dir"
  "$grade" lab01 "$dir" --work-dir "$scratch/work" --json "$scratch/$lie.json" >/dev/null 2>&1 || true
  summary "$lie" "$scratch/$lie.json"
done
