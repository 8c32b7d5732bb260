#!/usr/bin/env bash
# `grade batch --course`: submission times from the roster's LMS column, the course's
# due times (default, section) and late policy; the gradebook's late columns read with
# Python's csv module; a bad course file stops the batch before anything is graded;
# without --course the gradebook keeps its usual columns.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_LOCK_DIR="$W/locks"
mkdir -p "$W/class"
for s in ontime grace cutoff; do cp -r "$REFERENCE" "$W/class/$s"; done
cat >"$W/roster.csv" <<'CSV'
folder,id,name,section,submitted_at
ontime,s001,On Time,A,2026-03-01T22:00:00-05:00
grace,s002,In Grace,B,2026-03-03T00:09:00-05:00
cutoff,s003,Too Late,A,2026-03-07T05:00:00Z
CSV
cat >"$W/course.toml" <<'TOML'
[late_policy]
grace_minutes = 15
penalty_percent_per_day = 10
cap_percent = 30
cutoff_days = 5
[due]
default = 2026-03-01T23:59:00-05:00
sections = { B = 2026-03-02T23:59:00-05:00 }
TOML
common=(lab01 "$W/class" --roster "$W/roster.csv" --work-dir "$W/work" "${BATCH_OPTS[@]}" --jobs 2)

# --- a bad course file: exit 2 naming file and key, nothing graded -------------------
sed 's/^cap_percent = 30/cap_percent = "thirty"/' "$W/course.toml" >"$W/bad.toml"
run_grade bad batch "${common[@]}" --out "$W/bad-out" --course "$W/bad.toml"
expect_rc bad 2
# text: the error message naming the file and the key is what is tested
expect_in "$W/bad.err" 'bad\.toml.*cap_percent' "bad course file: the error names the file and the key"
[ ! -e "$W/bad-out/students" ] && pass "bad course file: nothing graded" || fail "bad course file: something was graded"

# --- the class with the course file (and the class's similarity check) ---------------
similarity=(); command -v sim_c++ >/dev/null && similarity=(--similarity)
run_grade late batch "${common[@]}" --out "$W/out" --course "$W/course.toml" "${similarity[@]}"
expect_rc late 0
if [ ${#similarity[@]} -eq 0 ]; then echo "similarity not checked: similarity-tester not installed"
elif python3 - "$W/out/similarity" >"$W/similarity.check" 2>&1 <<'PY'; then
import json, os, sys
out = sys.argv[1]
pairs = json.load(open(f"{out}/pairs.json"))["pairs"]
names = sorted({p["a"] for p in pairs} | {p["b"] for p in pairs})
problems = []
if names != ["s001 (On Time)", "s002 (In Grace)", "s003 (Too Late)"]: problems.append(f"students named {names}")
if len(pairs) != 3 or any(p["score"] < 0.99 or not p["flagged"] for p in pairs):
    problems.append(f"three copies of one solution: {pairs}")
if len(os.listdir(f"{out}/pairs")) != 3: problems.append(f"pair pages: {os.listdir(out + '/pairs')}")
if "Clusters" not in open(f"{out}/index.html").read(): problems.append("index.html has no clusters")
print("\n".join(problems) or "similarity outputs as expected")
sys.exit(1 if problems else 0)
PY
  pass "--similarity: OUT/similarity has pairs.json (3 copies at 1.0, roster names), 3 pair pages, index.html"
else fail "--similarity outputs"; sed 's/^/  | /' "$W/similarity.check" >&2; fi
python3 - "$W/out/gradebook.csv" >"$W/late.check" 2>&1 <<'PY'
import csv, sys
rows = {r["id"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
problems = []
def want(sid, col, value):
    got = rows[sid][col]
    if got != value: problems.append(f"{sid} {col}: {got!r}, expected {value!r}")
for sid in ("s001", "s002", "s003"):
    want(sid, "total", "60"); want(sid, "raw_score", "60")
    want(sid, "submitted_from", "roster submitted_at")
want("s001", "submitted_at", "2026-03-02T03:00:00Z"); want("s001", "lateness", "on time")
want("s001", "penalty_percent", "0"); want("s001", "final_score", "60"); want("s001", "late_reason", "")
# Section B is due a day later: 10 minutes late, within the grace period.
want("s002", "lateness", "10 min"); want("s002", "penalty_percent", "0")
want("s002", "final_score", "60"); want("s002", "late_reason", "")
want("s003", "final_score", "0"); want("s003", "penalty_percent", "100")
if "after the hard cutoff" not in rows["s003"]["late_reason"]:
    problems.append("s003 late_reason: " + rows["s003"]["late_reason"])
print("\n".join(problems) or "gradebook late columns as expected")
sys.exit(1 if problems else 0)
PY
[ $? -eq 0 ] && pass "late columns (python csv)" || { fail "late columns"; sed 's/^/  | /' "$W/late.check" >&2; }
expect_field "$W/out/students/s003/late.json" reason 'submitted 5 days .*after the hard cutoff.*' "s003's record says why"
expect_field "$W/out/students/s001/late.json" due '2026-03-02T04:59:00Z' "s001's record names the due time"
expect_in "$W/out/late.md" '^- s003: 60 -> 0 points: submitted ' "the class's late report names who lost points and why"
grep -q 's00[12]' "$W/out/late.md" && fail "late.md lists a student who lost nothing" || pass "late.md lists only deductions"
# The students' own reports say it too: Gradescope's score is the final one.
python3 - "$W/out/students" >"$W/reports.check" 2>&1 <<'PY'
import json, sys
problems = []
def results(sid):
    return json.load(open(f"{sys.argv[1]}/{sid}/gradescope/results.json"))
s3, s1 = results("s003"), results("s001")
if s3["score"] != 0: problems.append(f"s003 Gradescope score {s3['score']}, expected 0 (past the cutoff)")
if sum(t["score"] for t in s3["tests"]) != 60: problems.append("s003's tests no longer show the raw 60 points")
for part in ("**Raw score:** 60 / ", "**Penalty:** 100 %", "**Final score:** 0 / ", "after the hard cutoff"):
    if part not in s3["output"]: problems.append(f"s003 Gradescope output lacks {part!r}")
if s1["score"] != 60 or "**Why:** nothing deducted" not in s1["output"]:
    problems.append(f"s001 (on time): score {s1['score']}, output {s1['output'][:300]!r}")
s2 = results("s002")
if s2["score"] != 60 or "**Why:** within the grace period: nothing deducted" not in s2["output"]:
    problems.append(f"s002 (10 min late, in the grace): score {s2['score']}, output {s2['output'][:300]!r}")
md = open(f"{sys.argv[1]}/s003/report.md").read()
head = md[:md.find("| Test |")]  # the late section comes before the tests' table
for part in ("## Late policy", "**Lateness:** 5 days", "**Final score:** 0 / ", "after the hard cutoff"):
    if part not in head: problems.append(f"s003 report.md lacks {part!r} above the tests")
print("\n".join(problems) or "student reports carry the late outcome")
sys.exit(1 if problems else 0)
PY
[ $? -eq 0 ] && pass "report.md and results.json say raw score, lateness, penalty, final score, why" ||
  { fail "late outcome in the students' reports"; sed 's/^/  | /' "$W/reports.check" >&2; }
cmp -s "$W/course.toml" "$W/out/course.toml" && pass "course file kept in the output folder" || fail "course.toml not kept"

# --- the same folder without --course: the usual columns (nobody graded again) -----
run_grade plain batch "${common[@]}" --out "$W/out"
expect_rc plain 0
python3 -c 'import csv, sys; sys.exit("raw_score" in next(csv.reader(open(sys.argv[1]))))' "$W/out/gradebook.csv" &&
  pass "no late columns without --course" || fail "late columns without --course"
[ ! -e "$W/out/late.md" ] && pass "late.md removed without --course" || fail "late.md left without --course"
expect_field "$W/out/summary.json" last_run.to_grade 0 "nobody graded again"
expect_field "$W/out/students/s003/gradescope/results.json" score 60 "without --course Gradescope's score is the raw one"
grep -q 'Late policy' "$W/out/students/s003/report.md" && fail "report.md keeps the late section without --course" ||
  pass "report.md plain again without --course"
finish
