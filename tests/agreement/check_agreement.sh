#!/usr/bin/env bash
# Grades every line of tests/agreement/verdicts.tsv on one device (--no-perf) and
# prints each disagreement with the expected verdict. Usage:
#   check_agreement.sh GRADE_BINARY DEVICE(sim|gpu) WORK_DIR [LAB_FILTER_REGEX]
# Exit 0: all agree; 1: some disagree; 2: usage.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 GRADE DEVICE WORK_DIR [LAB_REGEX]" >&2; exit 2; }
GRADE=$1 DEVICE=$2 WORK=$3 FILTER=${4:-.}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TABLE="$ROOT/tests/agreement/verdicts.tsv"
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

while IFS=$'\t' read -r lab submission expected why; do
  case "$lab" in ''|'#'*) continue ;; esac
  [[ "$lab" =~ $FILTER ]] || continue
  name="${lab}_$(echo "$submission" | tr '/' '_')"
  json="$WORK/$name.json"
  rm -f "$json"
  if [ "$submission" = reference ]; then
    "$GRADE" "$lab" --reference --device "$DEVICE" --no-perf --work-dir "$WORK/work" \
      --json "$json" >"$WORK/$name.out" 2>&1
  else
    sub="$WORK/$name"
    rm -rf "$sub"
    # The fake made from the current reference; one that cannot be made disagrees.
    if ! bash "$ROOT/tests/fakes/make_fake.sh" "$lab" "$submission" "$sub" 2>"$WORK/$name.out"; then
      echo "DISAGREE  $lab $submission: the fake could not be made (see $WORK/$name.out)"
      sed 's/^/  | /' "$WORK/$name.out"
      disagreements=$((disagreements + 1)) checked=$((checked + 1))
      continue
    fi
    "$GRADE" "$lab" "$sub" --device "$DEVICE" --no-perf --work-dir "$WORK/work" \
      --json "$json" >"$WORK/$name.out" 2>&1
  fi
  got=$(verdict_of "$json")
  checked=$((checked + 1))
  if [ "$got" = "$expected" ]; then
    echo "agree     $lab $submission: $got"
  else
    echo "DISAGREE  $lab $submission: expected $expected ($why), $DEVICE gives $got (see $WORK/$name.out)"
    disagreements=$((disagreements + 1))
  fi
done <"$TABLE"
echo "$checked checked on $DEVICE, $disagreements disagreement(s)"
[ "$disagreements" -eq 0 ]
