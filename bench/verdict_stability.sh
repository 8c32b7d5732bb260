#!/usr/bin/env bash
# Benchmark (not a test) of the fair-performance rules (docs/scoring.md): is a verdict
# the grader hands out stable on an ordinary machine?
#   - the reference of each CPU-measured lab (lab01; lab02's CPU tests, in sim mode),
#     graded RUNS times in a row, quiet and then with one core kept busy by an
#     unrelated `yes >/dev/null`: full marks, or "inconclusive: machine busy", never a
#     silently lower score;
#   - an honest parallel submission 2x slower than the reference
#     (tests/fakes/parallelism, *_half_speed), graded the same way: never full points;
#   - lab01's serial pool with a CPU-burning child (lab01_burner): no performance points
#     on the parallel tests, never full.
# Prints one table row per (condition, lab, submission) with the performance outcome
# of each grading. Run from the repository root after building:
#   bash bench/verdict_stability.sh [BUILD_DIR] [RUNS] [LAB02_RUNS]
# (a lab02 grading in sim mode takes about 45 s on 2 cores: LAB02_RUNS defaults to RUNS)
set -euo pipefail
build=${1:-build}
runs=${2:-10}
lab02_runs=${3:-$runs}
grade="$build/grade"
fakes=tests/fakes/parallelism
scratch=$(mktemp -d /tmp/parlab-stability.XXXXXX)
chmod 755 "$scratch"  # children may run as an unprivileged user (docs/sandbox.md)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$scratch"' EXIT

bash "$fakes/make_submission.sh" lab01_half_speed "$scratch/lab01_half"
bash "$fakes/make_submission.sh" lab02_half_speed "$scratch/lab02_half"
bash "$fakes/make_submission.sh" lab01_burner "$scratch/lab01_burner"

# One grading's CPU performance tests: F (all full), I (some inconclusive, none lower),
# L (some lower: partial or failed), with the points and the exit code.
outcome() {  # JSON RC
  python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
perf = [t for t in r["tests"] if t["kind"] == "performance" and t["status"] != "not_graded"]
st = [t["status"] for t in perf]
kind = "L" if any(s in ("partial", "failed", "skipped") for s in st) else \
       "I" if "inconclusive" in st else "F"
pts = sum(t["points"] for t in perf)
mx = sum(t["max_points"] for t in perf)
print("%s(%g/%g,rc%s)" % (kind, pts, mx, sys.argv[2]))
PY
}

row() {  # CONDITION LAB NAME ARGS...
  local condition=$1 lab=$2 name=$3; shift 3
  local cells=() f=0 i=0 l=0 count=$runs
  [ "$lab" = lab02 ] && count=$lab02_runs
  for n in $(seq 1 "$count"); do
    local json="$scratch/$condition-$lab-$name-$n.json" rc=0
    "$grade" "$lab" "$@" --work-dir "$scratch/work" --json "$json" >/dev/null 2>&1 || rc=$?
    local cell; cell=$(outcome "$json" "$rc")
    cells+=("$cell")
    case "$cell" in F*) f=$((f + 1)) ;; I*) i=$((i + 1)) ;; *) l=$((l + 1)) ;; esac
  done
  echo "| $condition | $lab | $name | $f | $i | $l | ${cells[*]} |"
}

echo "# verdict stability: $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "F: every CPU performance test at full credit; I: some inconclusive (machine busy or"
echo "noisy: no points lost, exit 5), none lower; L: some lower (partial or failed)."
echo
echo "| condition | lab | submission | F | I | L | each grading |"
echo "|---|---|---|---|---|---|---|"
for condition in quiet busy; do
  if [ "$condition" = busy ]; then
    yes >/dev/null &
    hog=$!
  fi
  row "$condition" lab01 reference --reference
  row "$condition" lab01 half_speed "$scratch/lab01_half"
  row "$condition" lab01 burner "$scratch/lab01_burner"
  row "$condition" lab02 reference --reference --device sim
  row "$condition" lab02 half_speed "$scratch/lab02_half" --device sim
done
