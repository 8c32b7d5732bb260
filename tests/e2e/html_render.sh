#!/usr/bin/env bash
# The HTML reports in a real browser: headless Chromium renders report pages (the lab01
# reference, lab03 on a GPU and in the simulator, from the golden results through
# `grade report --format html`) and a batch's summary.html; each screenshot must not be
# blank and each rendered DOM must hold the expected numbers. Pages are opened from
# files with the network off: they must need nothing else. Nothing here measures time
# (the batch is --no-perf): it runs beside other tests. What real measured gradings
# write into their pages is html_reports.sh's.
# Skips (77) without chromium, unless PARLAB_REQUIRE_CHROMIUM=1 (CI installs it).
# PARLAB_UPDATE_SCREENSHOTS=1 copies the screenshots to docs/images/ (docs/reports.md).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"  # children run as nobody when the tests run as root (docs/sandbox.md)
FIXTURES="$PARLAB_SOURCE_DIR/tests/golden/results"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  if [ "${PARLAB_REQUIRE_CHROMIUM:-0}" = 1 ]; then
    fail "chromium is required (PARLAB_REQUIRE_CHROMIUM=1) but not installed: bash containers/install-deps.sh"
    finish
  fi
  echo "SKIP: chromium is not installed (the Debian package 'chromium'; containers/install-deps.sh installs it)"
  exit 77
fi

# browse PAGE NAME: screenshot NAME.png and the DOM as Chromium built it, NAME.dom.html.
browse() {
  local page=$1 name=$2
  local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
               --user-data-dir="$W/chromium-profile" --proxy-server=127.0.0.1:9
               --window-size=1100,1500)
  timeout 120 "$CHROMIUM" "${flags[@]}" --screenshot="$W/$name.png" "file://$page" >"$W/$name.chromium.log" 2>&1
  timeout 120 "$CHROMIUM" "${flags[@]}" --dump-dom "file://$page" >"$W/$name.dom.html" 2>>"$W/$name.chromium.log"
  if python3 "$PARLAB_SOURCE_DIR/tests/e2e/png_check.py" "$W/$name.png" >"$W/$name.png.txt" 2>&1; then
    pass "$name: screenshot is not blank ($(cat "$W/$name.png.txt"))"
  else
    fail "$name: screenshot blank or missing"; sed 's/^/  | /' "$W/$name.png.txt" "$W/$name.chromium.log" | tail -20 >&2
  fi
}

# --- report pages through grade report -------------------------------------------------
run_grade lab01_html report "$FIXTURES/lab01_reference.json" --format html -o "$W/lab01.html"
expect_rc lab01_html 0
browse "$W/lab01.html" lab01_reference
expect_in "$W/lab01_reference.dom.html" 'data-score="85"' "lab01 page: total 85"
expect_in "$W/lab01_reference.dom.html" '<svg class="ratio-band"' "lab01 page: each measured ratio is drawn against its band"
expect_in "$W/lab01_reference.dom.html" 'data-test="parallel speedup"' "lab01 page: the performance test has its card"

run_grade gpu_html report "$FIXTURES/lab03_gpu_reference.json" --format html -o "$W/gpu.html"
expect_rc gpu_html 0
browse "$W/gpu.html" lab03_gpu
expect_in "$W/lab03_gpu.dom.html" 'data-score="90.2"' "GPU page: total 90.2"
expect_in "$W/lab03_gpu.dom.html" 'data-ratio="0.97" data-zero="0.8" data-full="1"' "GPU page: vector_add ratio against its band"
expect_in "$W/lab03_gpu.dom.html" 'class="roofline".*data-fraction="0.81"' "GPU page: roofline point at 81% of the roof"
expect_in "$W/lab03_gpu.dom.html" 'host to device: 2.1 ms' "GPU page: transfer/kernel split"

run_grade sim_html report "$FIXTURES/lab03_sim_reference.json" --format html -o "$W/sim.html"
expect_rc sim_html 0
browse "$W/sim.html" lab03_sim
expect_in "$W/lab03_sim.dom.html" '60 / 60 graded here' "sim page: what was graded here"
expect_in "$W/lab03_sim.dom.html" '40 points of GPU tests need a GPU' "sim page: what needs a GPU"
expect_not_in "$W/lab03_sim.dom.html" 'data-status="failed"' "sim page: no test shown as failed"

# --- a batch's summary.html (correctness only) ------------------------------------------
mkdir -p "$W/class"
cp -r "$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing" "$W/class/fast_a"
cp -r "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton" "$W/class/skeleton"
cp -r "$FAKES/compile_error" "$W/class/broken"
run_grade batch batch lab01 "$W/class" --out "$W/out" --work-dir "$W/work" --no-perf --wall-limit 20
case "$(rc_of batch)" in 0|1) pass "batch finished (exit $(rc_of batch))" ;; *) expect_rc batch 0 ;; esac
[ -s "$W/out/summary.html" ] && pass "summary.html written" || fail "no summary.html"
browse "$W/out/summary.html" summary
expect_in "$W/summary.dom.html" 'data-students="3"' "summary: 3 students"
expect_in "$W/summary.dom.html" '<span data-count="build_failed">1</span>' "summary: 1 did not build"
expect_in "$W/summary.dom.html" '<svg class="histogram"' "summary: score histogram"
expect_in "$W/summary.dom.html" 'data-test="serial statistics".*1 / 3.*data-rate="0.33' "summary: pass rate of a correctness test (1 of 3)"

if [ "${PARLAB_UPDATE_SCREENSHOTS:-0}" = 1 ]; then
  mkdir -p "$PARLAB_SOURCE_DIR/docs/images"
  cp "$W/lab03_gpu.png" "$PARLAB_SOURCE_DIR/docs/images/report-html.png"
  cp "$W/summary.png" "$PARLAB_SOURCE_DIR/docs/images/summary-html.png"
  echo "screenshots copied to docs/images/"
fi
finish
