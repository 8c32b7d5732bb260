#!/usr/bin/env bash
# Grades every line of tests/agreement/verdicts.tsv on one device (--no-perf) and
# prints each disagreement with the expected verdict. Usage:
#   check_agreement.sh GRADE_BINARY DEVICE(sim|gpu) WORK_DIR [LAB_FILTER_REGEX]
# AGREEMENT_JOBS=N grades N lines at a time; the lines print in table order. Default: in
# sim the cores, as `grade batch --jobs` does (correctness only, so no timing suffers);
# on a GPU one, since the gradings share one device and a fake may fill its memory.
# A verdict written SIM|GPU (e.g. no_build|fail) is a difference the table expects and
# docs/simulation.md explains: the part for DEVICE is the one checked.
# AGREEMENT_RESULTS=DIR (sim only) grades nothing: it reads each line's grading made by
# the fake-gradings fixture (tests/fakes/grade_table.sh, which grades this table once per
# suite run for every check that reads it), e.g. build/tests/fake-results.
# Exit 0: all agree; 1: some disagree; 2: usage.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 GRADE DEVICE WORK_DIR [LAB_REGEX]" >&2; exit 2; }
GRADE=$1 DEVICE=$2 WORK=$3 FILTER=${4:-.}
if [ "$DEVICE" = sim ]; then JOBS=${AGREEMENT_JOBS:-$(nproc)}; else JOBS=${AGREEMENT_JOBS:-1}; fi
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "AGREEMENT_JOBS must be a positive number, not '$JOBS'" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TABLE="$ROOT/tests/agreement/verdicts.tsv"
RESULTS=${AGREEMENT_RESULTS:-}
[ -z "$RESULTS" ] || [ "$DEVICE" = sim ] || { echo "AGREEMENT_RESULTS holds sim gradings: not for $DEVICE" >&2; exit 2; }
source "$ROOT/tests/fakes/fake_results.bash"
mkdir -p "$WORK"
disagreements=0
checked=0

# pass / fail / no_build from a result.json: correctness tests only.
verdict_of() {  # JSON
  python3 - "$1" <<'PY'
import json, sys
try:
    result = json.load(open(sys.argv[1]))
    tests = [t for t in result["tests"] if t.get("kind") == "correctness"]
except (OSError, ValueError, KeyError):
    print("no_result"); sys.exit()
if result.get("build", {}).get("ok") is False:
    print("no_build")
elif tests and all(t.get("status") == "passed" for t in tests):
    print("pass")
else:
    print("fail")
PY
}

# The verdict a line expects on DEVICE: "V" on both, "SIM|GPU" by device.
expected_on() {  # DEVICE VERDICT
  case "$2" in
    *'|'*) if [ "$1" = sim ]; then echo "${2%%|*}"; else echo "${2#*|}"; fi ;;
    *) echo "$2" ;;
  esac
}

# One line's grading: the fake made from the current reference, then graded; its verdict
# is read afterwards, in table order. A fake that cannot be made leaves a .nofake mark.
grade_line() {  # LAB SUBMISSION NAME
  local lab=$1 submission=$2 name=$3 json="$WORK/$3.json"
  rm -f "$json" "$WORK/$name.nofake"
  if [ "$submission" = reference ]; then
    "$GRADE" "$lab" --reference --device "$DEVICE" --no-perf --work-dir "$WORK/work" \
      --json "$json" >"$WORK/$name.out" 2>&1
    return
  fi
  local sub="$WORK/$name"
  rm -rf "$sub"
  if ! bash "$ROOT/tests/fakes/make_fake.sh" "$lab" "$submission" "$sub" 2>"$WORK/$name.out"; then
    touch "$WORK/$name.nofake"
    return
  fi
  "$GRADE" "$lab" "$sub" --device "$DEVICE" --no-perf --work-dir "$WORK/work" \
    --json "$json" >"$WORK/$name.out" 2>&1
}

lines=()
while IFS=$'\t' read -r lab submission expected why; do
  case "$lab" in ''|'#'*) continue ;; esac
  [[ "$lab" =~ $FILTER ]] || continue
  lines+=("$lab"$'\t'"$submission"$'\t'"$expected"$'\t'"$why")
done <"$TABLE"

# A line's grading: the fixture's (AGREEMENT_RESULTS) or this run's, as WORK/NAME.json,
# .out and .nofake.
take_result() {  # LAB SUBMISSION NAME
  local dir; dir=$(fake_result_dir "$RESULTS" "$1" "$2" --no-perf)
  rm -f "$WORK/$3.json" "$WORK/$3.nofake"
  if [ -e "$dir/nofake" ]; then cp "$dir/nofake" "$WORK/$3.out"; touch "$WORK/$3.nofake"; return; fi
  [ ! -e "$dir/result.json" ] || cp "$dir/result.json" "$WORK/$3.json"
  cat "$dir/stdout" "$dir/stderr" >"$WORK/$3.out" 2>/dev/null ||
    echo "no grading in $dir: did the fixture run (tests/fakes/grade_table.sh)?" >"$WORK/$3.out"
}

running=0
for line in "${lines[@]}"; do
  IFS=$'\t' read -r lab submission _ _ <<<"$line"
  name="${lab}_$(echo "$submission" | tr '/' '_')"
  if [ -n "$RESULTS" ]; then take_result "$lab" "$submission" "$name"; continue; fi
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  grade_line "$lab" "$submission" "$name" &
  running=$((running + 1))
done
wait

for line in "${lines[@]}"; do
  IFS=$'\t' read -r lab submission expected why <<<"$line"
  name="${lab}_$(echo "$submission" | tr '/' '_')"
  checked=$((checked + 1))
  if [ -e "$WORK/$name.nofake" ]; then
    echo "DISAGREE  $lab $submission: the fake could not be made (see $WORK/$name.out)"
    sed 's/^/  | /' "$WORK/$name.out"
    disagreements=$((disagreements + 1))
    continue
  fi
  got=$(verdict_of "$WORK/$name.json")
  expected=$(expected_on "$DEVICE" "$expected")
  if [ "$got" = "$expected" ]; then
    echo "agree     $lab $submission: $got"
  else
    echo "DISAGREE  $lab $submission: expected $expected ($why), $DEVICE gives $got (see $WORK/$name.out)"
    disagreements=$((disagreements + 1))
  fi
done
if [ -n "$RESULTS" ]; then how="as graded in $RESULTS"; else how="with $JOBS at a time"; fi
echo "$checked checked on $DEVICE $how, $disagreements disagreement(s)"
[ "$disagreements" -eq 0 ]
