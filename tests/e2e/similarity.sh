#!/usr/bin/env bash
# `grade similarity` on a generated lab03 class (tests/similarity/make_class.sh): no
# grading, only similarity-tester. Disguised copies score at least 0.9 against their
# source, an independent solution at most 0.3, the skeleton alone 0; flagged pairs get
# a page; a hostile folder name and file content come out escaped; a bad class folder
# is a clear error; a roster names a student. The same bars for a lab01 Python-track
# class (tests/similarity/make_python_class.sh). Skips (77) without similarity-tester.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
if ! command -v sim_c++ >/dev/null; then echo "skipped: similarity-tester not installed"; exit 77; fi

bash "$PARLAB_SOURCE_DIR/tests/similarity/make_class.sh" "$PARLAB_SOURCE_DIR" "$W/class"
hostile='<img src=x onerror=alert(1)>'
mkdir "$W/class/$hostile"
{ cat "$W/class/original/kernels.cu"; echo '// </pre><script>alert("x")</script>'; } >"$W/class/$hostile/kernels.cu"
# An archive is unpacked as grade batch does (its sources one folder down).
python3 -c "import zipfile,sys; zipfile.ZipFile(sys.argv[1],'w').write(sys.argv[2],'mine/kernels.cu')" \
  "$W/class/zipped.zip" "$W/class/renamed/kernels.cu"
mkdir "$W/class/no_sources" && echo hello >"$W/class/no_sources/notes.txt"

printf 'folder,id,name\nrenamed,s123,Ann Lee\n' >"$W/roster.csv"  # names one student, as in grade batch
run_grade sim similarity lab03 "$W/class" --out "$W/out" --roster "$W/roster.csv"
expect_rc sim 0
if python3 - "$W/out/pairs.json" <<'PY'; then
import json, sys
pairs = json.load(open(sys.argv[1]))["pairs"]
score = {frozenset((p["a"], p["b"])): p["score"] for p in pairs}
copies = ["original", "s123 (Ann Lee)", "reformatted", "reordered", "zipped", "<img src=x onerror=alert(1)>"]
bad = []
for i, a in enumerate(copies):
    for b in copies[i + 1:]:
        if score[frozenset((a, b))] < 0.9: bad.append(f"copy {a} / {b}: {score[frozenset((a, b))]}")
for c in copies:
    s = score[frozenset((c, "independent_plain"))]
    if s > 0.3: bad.append(f"independent_plain / {c}: {s}")
for p in pairs:
    if "skeleton_only" in (p["a"], p["b"]) and p["score"] != 0: bad.append(f"skeleton counted: {p}")
if not any(n.startswith("no_sources:") for n in json.load(open(sys.argv[1]))["not_compared"]):
    bad.append("no_sources is not listed as not compared")
if len(pairs) != 36: bad.append(f"{len(pairs)} pairs, expected 36 (9 submissions)")
print("\n".join(bad) or "scores within bounds")
sys.exit(1 if bad else 0)
PY
  pass "copies >= 0.9, independent <= 0.3, skeleton 0 (pairs.json)"
else fail "scores out of bounds (above)"; fi
expect_in "$W/out/pairs.csv" '^track,a,b,score' "pairs.csv has its header"
flagged=$(python3 -c "import json,sys; print(sum(p['flagged'] for p in json.load(open(sys.argv[1]))['pairs']))" "$W/out/pairs.json")
pages=$(ls "$W/out/pairs" | wc -l)
[ "$flagged" -ge 15 ] && [ "$pages" = "$flagged" ] && pass "$pages pair pages, one per flagged pair" ||
  fail "$pages pair pages for $flagged flagged pairs"
expect_in "$W/out/index.html" 'Clusters' "the class page has the clusters"
expect_in "$W/out/index.html" '<svg' "the class page draws the distribution"
if grep -rl '<img src=x\|<script' "$W/out/index.html" "$W/out/pairs"; then fail "unescaped submission text"; else
  pass "no raw hostile name or content in any page"; fi
grep -lq '&lt;img src=x onerror=alert(1)&gt;' "$W/out/index.html" && grep -rq '&lt;/pre&gt;&lt;script&gt;' "$W/out/pairs" &&
  pass "hostile name and content shown escaped" || fail "hostile name or content missing from the pages"
[ ! -e "$W/class/original/kernels.cu.sim" ] && [ "$(ls "$W/class/original")" = "kernels.cu" ] &&
  pass "the students' folders are left as they were" || fail "something was written into a student's folder"

# --- Python: lab01's Python track, normalised with Python's tokenize, then sim_text ---
bash "$PARLAB_SOURCE_DIR/tests/similarity/make_python_class.sh" "$PARLAB_SOURCE_DIR" "$W/pyclass"
# Copied, then cut off inside a call: tokenize stops there; still compared, with a note.
{ head -n 60 "$W/pyclass/py_original/file_stats.py"; echo 'oops = broken('; } >"$W/pyclass/py_broken.py.txt"
mkdir "$W/pyclass/py_broken" && mv "$W/pyclass/py_broken.py.txt" "$W/pyclass/py_broken/file_stats.py"
run_grade py similarity lab01 "$W/pyclass" --out "$W/pyout"
expect_rc py 0
if python3 - "$W/pyout/pairs.json" >"$W/py.check" 2>&1 <<'PY'; then
import json, sys
doc = json.load(open(sys.argv[1]))
pairs = doc["pairs"]
score = {frozenset((p["a"], p["b"])): p["score"] for p in pairs}
copies = ["py_original", "py_renamed", "py_reformatted", "py_reordered"]
bad = []
for i, a in enumerate(copies):
    for b in copies[i + 1:]:
        if score[frozenset((a, b))] < 0.9: bad.append(f"copy {a} / {b}: {score[frozenset((a, b))]}")
for c in copies:
    if score[frozenset((c, "py_independent"))] > 0.3: bad.append(f"py_independent / {c}: {score[frozenset((c, 'py_independent'))]}")
if score[frozenset(("py_original", "py_broken"))] < 0.9: bad.append(f"py_broken / py_original: {score[frozenset(('py_original', 'py_broken'))]}")
for p in pairs:
    if "py_skeleton_only" in (p["a"], p["b"]) and p["score"] != 0: bad.append(f"skeleton counted: {p}")
    if p["track"] != "python": bad.append(f"not on the python track: {p}")
if len(pairs) != 21: bad.append(f"{len(pairs)} pairs, expected 21 (7 submissions)")
if not any(n.startswith("py_broken:") and "plain text" in n for n in doc["notes"]): bad.append(f"notes: {doc['notes']}")
print("\n".join(bad) or "python scores within bounds")
sys.exit(1 if bad else 0)
PY
  pass "python: copies >= 0.9, independent <= 0.3, skeleton 0, a broken file noted (pairs.json)"
else fail "python scores out of bounds"; sed 's/^/  | /' "$W/py.check" >&2; fi
# The pages show the submissions' own lines (mapped back from the normalised words).
grep -l '<mark>file_stats.py:[0-9]*  def compute_file_stats(path):' "$W/pyout/pairs/"*.html >/dev/null &&
  pass "python pair pages highlight the source's own lines" || fail "python pair pages show no source line highlighted"

run_grade missing similarity lab03 "$W/no-such-class" --out "$W/out2"
expect_rc missing 2
expect_in "$W/missing.err" "no-such-class" "a missing class folder is named"  # text: the error must name the folder
mkdir "$W/empty"
run_grade empty similarity lab03 "$W/empty" --out "$W/out3"
expect_rc empty 2
expect_in "$W/empty.err" "holds no submission" "an empty class folder is a clear error"  # text: the reason is the subject
finish
