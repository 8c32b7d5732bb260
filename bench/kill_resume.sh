#!/usr/bin/env bash
# Whole-class kill-and-resume check (not a CTest test: minutes for a large N). N lab01
# submissions (odd ones copies of the reference, even ones the skeleton; correctness
# only, one seed) graded in rounds, each round once uninterrupted ("plain") and once
# with the whole batch (its process group: the batch and its child gradings) killed
# with SIGKILL at three random moments and then resumed by a plain re-run to the end:
#   1. first grading;
#   2. --regrade (the resumes after a kill are plain runs: they finish the regrade);
#   3. the lab's tests edited (a copy of the lab folder with one test's points and its
#      dataset's seed changed, given by a copied toolchain.json): no option asks for a
#      regrade, the batch must notice the change by itself.
# After each round: every gradebook holds each student once, all graded, equal to the
# uninterrupted run's; no student was graded twice in the round (its log); in round 3
# every record was graded against the edited tests. Prints the wall times and the
# grader's own overhead per student: a grading's wall time minus its time inside the
# lab's executables (both from the records).
#   bash bench/kill_resume.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-build}
n=${2:-20}
grade="$(realpath "$build/grade")"
jobs=$((2 * $(nproc)))
scratch=$(mktemp -d /tmp/parlab-kill-resume.XXXXXX)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/class" "$scratch/logs"
for i in $(seq -w 1 "$n"); do
  if [ $((10#$i % 2)) -eq 1 ]; then cp -r reference/lab01-multiprocessing "$scratch/class/s$i"
  else cp -r labs/lab01-multiprocessing/skeleton "$scratch/class/s$i"; fi
done

# The edited lab: "single file" worth 8 points instead of 5, its dataset another seed
# (other expected outputs); the rest of the build as it is.
cp -r labs/lab01-multiprocessing "$scratch/lab01-edited"
python3 - "$scratch/lab01-edited/lab.toml" "$build/toolchain.json" "$scratch" <<'PY'
import json, re, sys
toml, toolchain, scratch = sys.argv[1:4]
text = open(toml).read()
edited = re.sub(r'(name = "single file"\nkind = "correctness"\npoints = )5', r"\g<1>8", text)
edited = edited.replace("[datasets.single]\ngenerator = \"sensor_logs\"\nseed = 101",
                        "[datasets.single]\ngenerator = \"sensor_logs\"\nseed = 109")
assert edited.count("points = 8") == 1 and "seed = 109" in edited, "lab.toml no longer has the lines edited here"
open(toml, "w").write(edited)
t = json.load(open(toolchain))
t["labs"]["lab01"]["dir"] = scratch + "/lab01-edited"
json.dump(t, open(scratch + "/toolchain-edited.json", "w"), indent=1)
PY

round=first
batch() {  # OUT [OPTIONS...]
  local out=$1; shift
  "$grade" batch lab01 "$scratch/class" --out "$scratch/$out" --work-dir "$scratch/work-$out" \
    --no-perf --seed 7 --jobs "$jobs" "$@" >>"$scratch/logs/$out-$round.log" 2>&1
}
killed_run() {  # OUT [OPTIONS...]: three SIGKILLs at random moments, then to the end
  local out=$1 k pid; shift
  local opts=("$@") resume=()
  for o in "$@"; do [ "$o" = --regrade ] || resume+=("$o"); done
  for k in 1 2 3; do
    setsid bash -c "$(declare -f batch); grade='$grade' scratch='$scratch' jobs=$jobs round=$round; batch $out ${opts[*]}" &
    pid=$!
    sleep "$(python3 -c "import random; print(round(random.uniform(1, 8), 1))")"
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    opts=("${resume[@]}")  # a --regrade under way is finished by plain runs
  done
  batch "$out" "${resume[@]}"
}
seconds() { python3 -c "import time; print(time.time())"; }
timed() {  # VAR COMMAND...: runs it, VAR = its wall seconds
  local var=$1 start; shift
  start=$(seconds); "$@"; printf -v "$var" '%s' "$(python3 -c "print(round($(seconds) - $start, 1))")"
}
check() {  # OUT [LAB_HASH]: each student once, all graded, as the plain run; none twice
  python3 - "$scratch/$1" "$scratch/plain" "$n" "$scratch/logs/$1-$round.log" "${2:-}" <<'PY'
import collections, csv, json, pathlib, re, sys
out, ref_out, n, log, lab_hash = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rows = list(csv.DictReader(open(out / "gradebook.csv")))
ref = {r["id"]: r for r in csv.DictReader(open(ref_out / "gradebook.csv"))}
ids = [r["id"] for r in rows]
assert len(ids) == len(set(ids)) == n, f"{len(ids)} rows, {len(set(ids))} students"
assert all(r["status"] == "graded" for r in rows), [r["id"] for r in rows if r["status"] != "graded"]
assert {r["id"]: r for r in rows} == ref, "gradebook differs from the uninterrupted run's"
done = collections.Counter(m.group(1) for m in re.finditer(r"^grade: batch: \[\d+/\d+\][^:\n]*: (s\d+): ", open(log).read(), re.M))
twice = [i for i, c in done.items() if c > 1]
assert not twice, f"graded more than once in this round: {twice}"
if lab_hash:
    old = [i for i in ids if json.load(open(out / "students" / i / "status.json"))["graded"]["lab_hash"] != lab_hash]
    assert not old, f"records graded against the old tests: {old}"
print(f"{out.name}: {len(rows)} rows, each once, all graded, the same as the uninterrupted run; "
      f"{len(done)} finished in this round's log, none twice")
PY
}
lab_hash() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['graded']['lab_hash'])" "$scratch/$1/students/s$(seq -w 1 "$n" | head -1)/status.json"; }

timed plain_s batch plain
timed killed_s killed_run killed
check killed
round=regrade
batch plain --regrade
timed regrade_s killed_run killed --regrade
check plain; check killed
round=edited
old_hash=$(lab_hash plain)
cp "$scratch/plain/gradebook.csv" "$scratch/gradebook-before-edit.csv"
timed edited_plain_s batch plain --toolchain "$scratch/toolchain-edited.json"
new_hash=$(lab_hash plain)
[ "$new_hash" != "$old_hash" ] || { echo "the edited lab kept the old lab_hash"; exit 1; }
timed edited_s killed_run killed --toolchain "$scratch/toolchain-edited.json"
check plain "$new_hash"; check killed "$new_hash"
python3 - "$scratch/plain/gradebook.csv" "$scratch/plain/students" "$n" "$plain_s" "$jobs" "$scratch/gradebook-before-edit.csv" <<'PY'
import csv, json, pathlib, statistics, sys
book, root, n, wall, jobs = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
rows, before = list(csv.DictReader(open(book))), list(csv.DictReader(open(sys.argv[6])))
# "single file" is worth 3 points more: every row's max, and the totals of those who pass it.
assert all(float(r["max"]) == float(b["max"]) + 3 for r, b in zip(rows, before)), "max did not follow the edit"
assert any(float(r["total"]) == float(b["total"]) + 3 for r, b in zip(rows, before)), "no total followed the edit"
pairs = sorted({(b["total"], b["max"], r["total"], r["max"]) for r, b in zip(rows, before)})
print("edited lab: totals " + ", ".join(f"{a}/{m} -> {c}/{d}" for a, m, c, d in pairs))
grading, ran, phases = [], [], {}
for p in root.glob("*/status.json"):
    grading.append(json.load(open(p))["seconds"])
    result = json.load(open(p.parent / "result.json"))
    ran.append(result["child_seconds"])  # wall time inside the lab's executables
    for k, v in (result.get("phase_seconds") or {}).items(): phases.setdefault(k, []).append(v or 0)
own = statistics.median(g - r for g, r in zip(grading, ran))
print("median phase seconds: " + ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in phases.items()))
print(f"first round uninterrupted: {wall} s for {n} students at --jobs {jobs} ({wall / n:.2f} s each); "
      f"last round's grading median {statistics.median(grading):.2f} s, of which the submission ran "
      f"{statistics.median(ran):.2f} s: grader overhead {own:.2f} s per student")
PY
echo "killed three times and resumed: first $killed_s s; --regrade $regrade_s s; edited tests $edited_s s (uninterrupted: $edited_plain_s s)"
