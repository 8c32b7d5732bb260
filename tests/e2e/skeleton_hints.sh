#!/usr/bin/env bash
# The untouched skeleton of every lab: the first report a student sees gives
# no hint about a cause the skeleton cannot have (lab01's '\r' line ends, lab03's
# matrix guard on saxpy, heat_solve's step count) and says "not implemented yet?".
# Its Gradescope results.json adds up: the tests' max_score sum is the graded total
# (GPU labs graded in the simulator, as without a GPU).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
for lab in lab01 lab02 lab03 lab04 lab05 lab06; do
  run_grade "$lab" "$lab" --no-perf --device sim --work-dir "$W/work" --json "$W/$lab.json" \
    --gradescope "$W/$lab.gradescope.json"
  expect_rc "$lab" 1
done
# check_messages LAB "TEST NAME PREFIX" REGEX WHAT: no failed test whose name starts
# with the prefix has a message matching REGEX.
check_messages() {
  local got
  got=$(python3 - "$W/$1.json" "$2" "$3" <<'PY'
import json, re, sys
tests = json.load(open(sys.argv[1]))["tests"]
hits = [t["name"] for t in tests if t["name"].startswith(sys.argv[2]) and re.search(sys.argv[3], t.get("message", ""))]
print("; ".join(hits))
PY
)
  if [ -z "$got" ]; then pass "$4"; else fail "$4: in $got"; fi
}
check_messages lab01 "" "'\\\\r' line end" "lab01: no CRLF hint for a skeleton that returns no rows"
check_messages lab03 "saxpy" "row < rows" "lab03: saxpy gets no matrix guard hint"
check_messages lab03 "heat_solve" "count every step" "lab03: heat_solve's 0 steps get no step-count hint"
# lab04's driver checks its atomics' poisoned results itself and says "nothing was written".
for lab in lab01 lab02 lab03 lab04 lab05 lab06; do
  python3 - "$W/$lab.json" <<'PY' && pass "$lab: 'not implemented yet?' said" || fail "$lab: no failed test says 'not implemented yet?'"
import json, re, sys
tests = json.load(open(sys.argv[1]))["tests"]
said = r"not implemented yet\?|nothing was written|left \*result at -1, the poison"
sys.exit(0 if any(re.search(said, t.get("message", "")) for t in tests) else 1)
PY
  # Gradescope: the tests' max_score sum is the total of what was graded here.
  python3 - "$W/$lab.json" "$W/$lab.gradescope.json" <<'PY' && pass "$lab: Gradescope tests add up to the graded total" || fail "$lab: Gradescope totals disagree"
import json, sys
result, gs = (json.load(open(f)) for f in sys.argv[1:])
graded = sum(t["max_points"] for t in result["tests"] if t["status"] not in ("not_graded", "inconclusive"))
shown = sum(t["max_score"] for t in gs["tests"])
listed = len(gs["tests"]) == len(result["tests"])
ok = abs(graded - shown) < 1e-9 and listed and abs(gs["score"] - sum(t["score"] for t in gs["tests"])) < 1e-9
if not ok: print(f"graded total {graded}, max_score sum {shown}, {len(gs['tests'])} of {len(result['tests'])} tests listed", file=sys.stderr)
sys.exit(0 if ok else 1)
PY
done
finish
