#!/usr/bin/env bash
# `grade batch` over a class that mixes lab01's tracks (docs/batch.md, "A class mixing
# tracks"): each student is graded on the track their files hold, and the gradebook's
# track column and each record say which. The C++ reference as a folder, the Python
# reference zipped inside a folder, and a folder holding both (rejected: the student's to
# fix); correctness only (BATCH_OPTS). (The Python skeleton's 0 is python_lab01.sh's.)
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_LOCK_DIR="$W/locks"
C="$W/class"
mkdir -p "$C" "$W/t/wrap/lab01"
cp -r "$REFERENCE" "$C/cpp_ref" && rm -rf "$C/cpp_ref/python"  # the C++ reference only
cp "$REFERENCE"/python/*.py "$W/t/wrap/lab01/"
(cd "$W/t/wrap" && bsdtar -a -cf "$C/py_ref.zip" lab01)
mkdir "$C/both" && cp "$REFERENCE/file_stats.cpp" "$REFERENCE/python/file_stats.py" "$C/both/"

run_grade batch batch lab01 "$C" --out "$W/out" --work-dir "$W/work" "${BATCH_OPTS[@]}" --jobs 2
expect_rc batch 0
G="$W/out/gradebook.csv"
if python3 - "$G" >"$W/rows.check" 2>&1 <<'PY'
import csv, sys
rows = {r["id"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
want = {"cpp_ref": ("graded", "cpp", "60"), "py_ref": ("graded", "python", "60"), "both": ("rejected", "", "0")}
problems = [f"{i}: status, track, total {(r['status'], r['track'], r['total'])}, expected {w}"
            for i, w in want.items() for r in [rows.get(i, {"status": "no row", "track": "", "total": ""})]
            if (r["status"], r["track"], r["total"]) != w]
print("\n".join(problems) or "rows as expected")
sys.exit(1 if problems else 0)
PY
then pass "each row graded on its own track, the gradebook says which"
else fail "gradebook rows by track"; sed 's/^/  | /' "$W/rows.check" "$G" >&2; fi
expect_field "$W/out/students/py_ref/result.json" track python "the Python record names its track"
expect_in "$G" '^,both,both,rejected,,.*holds both file_stats\.cpp \(cpp track\) and file_stats\.py \(python track\)' \
  "a folder with both tracks' sources is rejected naming both files, not retried as the grader's failure"
finish
