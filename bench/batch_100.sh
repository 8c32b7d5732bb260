#!/usr/bin/env bash
# Benchmark of `grade batch` (not a test): a generated class of N lab01 submissions
# graded in full (correctness and performance tests) on this machine; prints the
# figures docs/performance.md quotes. Run from the repository root after building:
#   bash bench/batch_100.sh [BUILD_DIR] [N]
# The class: 70 % copies of the reference (half as folders, half as .zip), 20 % the
# skeleton, 10 % a submission that does not compile. Before the batch, one reference
# grading alone gives the cost of a single submission for comparison.
# Needs python3 (JSON arithmetic) and bsdtar (libarchive-tools, for the .zip files).
set -euo pipefail
build=${1:-build}
n=${2:-100}
grade="$(realpath "$build/grade")"
src="$(pwd)"
scratch=$(mktemp -d /tmp/parlab-batch-bench.XXXXXX)
chmod 755 "$scratch"  # children may run as an unprivileged user (docs/sandbox.md)
trap 'rm -rf "$scratch"' EXIT

ref="$src/reference/lab01-multiprocessing"
skel="$src/labs/lab01-multiprocessing/skeleton"
bad="$src/tests/fakes/lab01/compile_error"
class="$scratch/class"
mkdir -p "$class"
for i in $(seq -w 1 "$n"); do
  k=$((10#$i % 10))
  if [ "$k" -lt 7 ]; then
    if [ $((k % 2)) -eq 0 ]; then cp -r "$ref" "$class/student_$i"
    else (cd "$ref" && bsdtar -a -cf "$class/student_$i.zip" .); fi
  elif [ "$k" -lt 9 ]; then cp -r "$skel" "$class/student_$i"
  else cp -r "$bad" "$class/student_$i"; fi
done

echo "# parlab batch benchmark: $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

# One grading alone (warm build of the reference executable and datasets first).
"$grade" lab01 --reference --work-dir "$scratch/single" >/dev/null 2>&1 || true
start=$(date +%s.%N)
"$grade" lab01 --reference --work-dir "$scratch/single" --json "$scratch/single.json" >/dev/null 2>&1 || true
single=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
echo "one reference grading alone, warm (s): $single"

start=$(date +%s.%N)
set +e
"$grade" batch lab01 "$class" --out "$scratch/out" --work-dir "$scratch/work" >"$scratch/batch.log" 2>&1
rc=$?
set -e
wall=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
tail -3 "$scratch/batch.log"
echo "batch exit code: $rc"
python3 - "$scratch/out" "$n" "$wall" "$single" <<'PY'
import csv, json, pathlib, statistics, sys
out, n, wall, single = pathlib.Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rows = list(csv.DictReader(open(out / "gradebook.csv")))
statuses = {}
for r in rows:
    statuses[r["status"]] = statuses.get(r["status"], 0) + 1
secs = []
for p in (out / "students").glob("*/result.json"):
    secs.append(json.load(open(p))["seconds"])
print(f"submissions: {n}, gradebook rows: {len(rows)}, statuses: {statuses}")
print(f"total wall time (s): {wall}  ({wall / 60:.1f} min)")
print(f"wall time per submission (s): {wall / n:.2f}")
if secs:
    print(f"median grading time of one student inside the batch (s): {statistics.median(secs):.2f}")
print(f"per-submission cost over one grading alone: {wall / n / single:.2f}x")
# The timings inside a batch must be as fair as alone: every copy of the reference
# should keep full marks, and noisy measurements show up as flags.
ref = sorted(float(r["total"]) for r in rows if int(r["id"].split("_")[-1]) % 10 < 7)
if ref:
    print(f"reference copies: {len(ref)}, total points min {ref[0]:g}, median {statistics.median(ref):g}, "
          f"full marks {sum(1 for t in ref if t == float(rows[0]['max']))}")
flags = {}
for r in rows:
    for f in filter(None, r["flags"].split(";")):
        flags[f] = flags.get(f, 0) + 1
print(f"flags: {flags or 'none'}")
PY
