#!/usr/bin/env bash
# Whole-class kill-and-resume check (not a CTest test: minutes for a large N). N lab01
# skeleton copies (correctness only, one seed) graded twice: once uninterrupted, once
# with the whole batch (its process group: the batch and its child gradings) killed
# with SIGKILL at three random moments and the same command re-run until it finishes;
# then a --regrade of both, killed the same way. Every run's gradebook must hold each
# student once, all graded, and equal the uninterrupted run's. Prints the wall times and
# the grader's own overhead per student (wall x jobs / N minus a grading's own seconds).
#   bash bench/kill_resume.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-build}
n=${2:-20}
grade="$(realpath "$build/grade")"
jobs=$((2 * $(nproc)))
scratch=$(mktemp -d /tmp/parlab-kill-resume.XXXXXX)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/class"
for i in $(seq -w 1 "$n"); do cp -r labs/lab01-multiprocessing/skeleton "$scratch/class/s$i"; done
batch() {  # OUT [OPTIONS...]
  local out=$1; shift
  "$grade" batch lab01 "$scratch/class" --out "$scratch/$out" --work-dir "$scratch/work-$out" \
    --no-perf --seed 7 --jobs "$jobs" "$@" >>"$scratch/$out.log" 2>&1
}
killed_run() {  # OUT [OPTIONS...]: three SIGKILLs at random moments, then to the end
  local out=$1 k pid; shift
  for k in 1 2 3; do
    setsid bash -c "$(declare -f batch); grade='$grade' scratch='$scratch' jobs=$jobs; batch $out $*" &
    pid=$!
    sleep "$(python3 -c "import random; print(round(random.uniform(1, 8), 1))")"
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  batch "$out" "$@" || batch "$out"  # a --regrade killed half way is finished by a plain run
}
seconds() { python3 -c "import time; print(time.time())"; }
check() {  # OUT: each student once, all graded, the same as the uninterrupted run
  python3 - "$scratch/$1/gradebook.csv" "$scratch/plain/gradebook.csv" "$n" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ref = {r["id"]: r for r in csv.DictReader(open(sys.argv[2]))}
ids = [r["id"] for r in rows]
assert len(ids) == len(set(ids)) == int(sys.argv[3]), f"{len(ids)} rows, {len(set(ids))} students"
assert all(r["status"] == "graded" for r in rows), [r["id"] for r in rows if r["status"] != "graded"]
assert {r["id"]: r for r in rows} == ref, "gradebook differs from the uninterrupted run's"
print(f"{sys.argv[1]}: {len(rows)} rows, each once, all graded, same as the uninterrupted run")
PY
}
start=$(seconds); batch plain; plain=$(python3 -c "print(round($(seconds) - $start, 1))")
start=$(seconds); killed_run killed; killed=$(python3 -c "print(round($(seconds) - $start, 1))")
check killed
batch plain --regrade
start=$(seconds); killed_run killed --regrade; regrade=$(python3 -c "print(round($(seconds) - $start, 1))")
check plain; check killed
python3 - "$scratch/plain/students" "$n" "$plain" "$jobs" <<'PY'
import json, pathlib, statistics, sys
root, n, wall, jobs = pathlib.Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
secs = [json.load(open(p))["seconds"] for p in root.glob("*/result.json")]
own = statistics.median(secs)
print(f"uninterrupted: {wall} s for {n} students at --jobs {jobs}; median grading {own:.2f} s; "
      f"batch overhead per student {wall * min(jobs, n) / n - own:.2f} s of a job slot")
PY
echo "killed three times and resumed: $killed s; regrade killed three times and resumed: $regrade s"
