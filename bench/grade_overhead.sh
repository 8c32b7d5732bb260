#!/usr/bin/env bash
# Benchmark of the grader itself (not a test): prints the figures docs/performance.md
# quotes. Run from the repository root after building:
#   bash bench/grade_overhead.sh [BUILD_DIR] [RUNS]
# 1. build time of one CPU submission, cold (fresh work dir each time), median of 3;
# 2. grader overhead over the measured runs on a warm build: (total - build -
#    time inside lab executables) / time inside lab executables, per grading;
# 3. the spread of scores over RUNS consecutive gradings of the reference.
# Needs python3 for the JSON arithmetic.
set -euo pipefail
build=${1:-build}
runs=${2:-5}
grade="$build/grade"
scratch=$(mktemp -d /tmp/parlab-bench.XXXXXX)
chmod 755 "$scratch"  # children may run as an unprivileged user (docs/sandbox.md)
trap 'rm -rf "$scratch"' EXIT

json_field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

echo "# parlab grader benchmark: $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

builds=()
for i in 1 2 3; do
  "$grade" lab01 --reference --no-perf --work-dir "$scratch/cold$i" --json "$scratch/cold$i.json" >/dev/null 2>&1 || true
  builds+=("$(json_field "$scratch/cold$i.json" "r['build']['seconds']")")
done
echo "cold build of one submission (s): ${builds[*]}"

overheads=()
scores=()
totals=()
for i in $(seq 1 "$runs"); do
  "$grade" lab01 --reference --work-dir "$scratch/warm" --json "$scratch/warm$i.json" >/dev/null 2>&1 || true
  overheads+=("$(json_field "$scratch/warm$i.json" "round((r['seconds'] - r['build']['seconds'] - r['child_seconds']) / r['child_seconds'] * 100, 2)")")
  scores+=("$(json_field "$scratch/warm$i.json" "r['score']")")
  totals+=("$(json_field "$scratch/warm$i.json" "round(r['seconds'], 2)")")
done
echo "warm grading total (s):             ${totals[*]}"
echo "grader overhead over child runs (%): ${overheads[*]}"
echo "scores of $runs reference gradings:  ${scores[*]}"
python3 - "${builds[@]}" -- "${overheads[@]}" -- "${scores[@]}" <<'PY'
import statistics, sys
args = sys.argv[1:]
parts, cur = [], []
for a in args:
    if a == "--":
        parts.append(cur); cur = []
    else:
        cur.append(float(a))
parts.append(cur)
b, o, s = parts
print(f"median cold build: {statistics.median(b):.2f} s (target <= 5 s)")
print(f"median overhead:   {statistics.median(o):.2f} % (target <= 15 %)")
print(f"scores: min {min(s)}, median {statistics.median(s)}, max {max(s)}")
PY
