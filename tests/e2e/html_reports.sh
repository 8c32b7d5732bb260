#!/usr/bin/env bash
# The HTML reports of real, measured gradings: `grade lab01 --reference --html` writes a
# page whose total is the result's score and whose measured ratios are drawn against
# their bands; a batch with performance on writes a summary.html that counts its
# students, those that did not build, and lists the fastest submissions with their
# ratio. The pages hold no script: what the file says is what a browser shows, and
# html_render.sh renders the same pages in Chromium (beside other tests; this script
# measures speed, so it runs alone).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
export PARLAB_LOCK_DIR="$W/locks"

# --- a real grading, written with --html --------------------------------------------
run_grade ref lab01 --reference --html "$W/ref.html" --json "$W/ref.json" --work-dir "$W/work"
# The page is under test, not the score: a busy machine may cost the reference speed points.
case "$(rc_of ref)" in 0|1|5) pass "reference grading finished (exit $(rc_of ref))" ;; *) expect_rc ref 0 ;; esac
expect_not_in "$W/ref.html" '<script' "the page needs no script"
score=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["score"])' "$W/ref.json")
score=$(python3 -c 'import sys; v=float(sys.argv[1]); print(int(v) if v == int(v) else v)' "$score")
expect_in "$W/ref.html" "data-score=\"$score\"" "the page's total is the result's score ($score)"
expect_in "$W/ref.html" '<svg class="ratio-band"' "each measured ratio is drawn against its band"
expect_in "$W/ref.html" 'data-test="parallel speedup"' "the performance test has its card"

# --- a batch's summary.html ----------------------------------------------------------
mkdir -p "$W/class"
cp -r "$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing" "$W/class/fast_a"
cp -r "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton" "$W/class/skeleton"
cp -r "$FAKES/compile_error" "$W/class/broken"
run_grade batch batch lab01 "$W/class" --out "$W/out" --work-dir "$W/work" --jobs 1 --wall-limit 20
case "$(rc_of batch)" in 0|1) pass "batch finished (exit $(rc_of batch))" ;; *) expect_rc batch 0 ;; esac
[ -s "$W/out/summary.html" ] && pass "summary.html written" || fail "no summary.html"
expect_not_in "$W/out/summary.html" '<script' "the summary needs no script"
expect_in "$W/out/summary.html" 'data-students="3"' "summary: 3 students"
expect_in "$W/out/summary.html" '<span data-count="build_failed">1</span>' "summary: 1 did not build"
expect_in "$W/out/summary.html" 'data-test="serial statistics".*1 / 3' "summary: pass rate of a correctness test (1 of 3)"
# Slowest/fastest list only judged measurements: a busy machine may leave none.
judged=$(python3 -c 'import json,sys; print(sum(len(t.get("fastest", [])) for t in json.load(open(sys.argv[1]))["tests"]))' "$W/out/summary.json")
if [ "$judged" -gt 0 ]; then
  expect_in "$W/out/summary.html" 'fast_a [0-9.]+x' "summary: slowest/fastest submissions with their ratio"
else
  echo "note: no performance measurement was judged (machine busy): no slowest/fastest to check"
  expect_in "$W/out/summary.html" 'data-test="parallel speedup"' "summary: the performance test has its row"
fi
finish
