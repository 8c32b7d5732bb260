#!/usr/bin/env bash
# Benchmark (not a test): do the Python tracks' references hold? Grades the Python
# reference of each lab (`grade LAB --reference --language python`, on the device the
# grader picks: Numba's CUDA simulator without a GPU) RUNS times in a row on a quiet
# machine, then BUSY_RUNS times with one core kept busy by an unrelated `yes`
# (docs/scoring.md: a busy machine may make a speed test inconclusive, never lose
# points). Prints one row per grading: the points against what was graded here, every
# test that did not pass (status and points), the grading's wall time and the load
# average before it; then per lab and condition how many gradings had full marks and
# the median grading time. Each result.json is kept in OUT_DIR.
#   bash bench/python_references.sh [BUILD_DIR] [RUNS] [BUSY_RUNS] [OUT_DIR] [LABS]
# Defaults: build 10 5 BUILD_DIR/pyrefs "lab01 lab02 lab03". Run from the repository root.
set -euo pipefail
build=${1:-build}
runs=${2:-10}
busy_runs=${3:-5}
out=${4:-$build/pyrefs}
labs=${5:-lab01 lab02 lab03}
grade="$build/grade"
[ -x "$grade" ] || { echo "python_references.sh: no grader at $grade (build first)" >&2; exit 2; }
mkdir -p "$out"
chmod 755 "$out"  # children may run as an unprivileged user (docs/sandbox.md)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; true' EXIT

# One grading's cell: points / graded here (max), each test that did not pass, seconds.
cell() {  # JSON RC LOAD
  python3 - "$@" <<'PY'
import json, sys
path, rc, load = sys.argv[1:]
try:
    r = json.load(open(path))
except (OSError, ValueError) as e:
    print(f"no result ({e}), rc {rc}, load {load}")
    sys.exit()
off = [f"{t['name']}: {t['status']} {t['points']:g}/{t['max_points']:g}" for t in r["tests"]
       if t["status"] not in ("passed", "not_graded")]
print(f"{r['score']:g} / {r['graded_max_score']:g} ({r['max_score']:g}), rc {rc}, "
      f"{r['seconds']:.1f} s, load {load}" + ("; " + "; ".join(off) if off else ""))
PY
}

# F: every graded test passed; I: some inconclusive, none lower; L: points lost.
summary() {  # CONDITION LAB JSON...
  python3 - "$@" <<'PY'
import json, statistics, sys
condition, lab, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
kinds, seconds = [], []
for p in paths:
    try:
        r = json.load(open(p))
    except (OSError, ValueError):
        kinds.append("L")
        continue
    st = [t["status"] for t in r["tests"] if t["status"] != "not_graded"]
    kinds.append("L" if any(s != "passed" and s != "inconclusive" for s in st)
                 else "I" if "inconclusive" in st else "F")
    seconds.append(r["seconds"])
med = statistics.median(seconds) if seconds else float("nan")
print(f"| {condition} | {lab} | {len(paths)} | {kinds.count('F')} | {kinds.count('I')} | "
      f"{kinds.count('L')} | {med:.1f} s |")
PY
}

echo "# Python references: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
rows=()
for condition in quiet busy; do
  count=$runs
  [ "$condition" = busy ] && count=$busy_runs
  [ "$count" -gt 0 ] || continue
  if [ "$condition" = busy ]; then
    yes >/dev/null &
    hog=$!
  fi
  for lab in $labs; do
    jsons=()
    for n in $(seq 1 "$count"); do
      json="$out/$condition-$lab-$n.json" rc=0
      rm -f "$json"
      load=$(cut -d' ' -f1 /proc/loadavg)
      "$grade" "$lab" --reference --language python --work-dir "$out/work" --json "$json" >"$out/$condition-$lab-$n.log" 2>&1 || rc=$?
      echo "$condition $lab #$n: $(cell "$json" "$rc" "$load")"
      jsons+=("$json")
    done
    rows+=("$(summary "$condition" "$lab" "${jsons[@]}")")
  done
  if [ -n "$hog" ]; then kill "$hog"; wait "$hog" 2>/dev/null || true; hog=; fi
done
echo
echo "F: every graded test passed; I: some inconclusive (none lower); L: points lost."
echo "| condition | lab | gradings | F | I | L | median grading time |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
