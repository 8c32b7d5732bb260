#!/usr/bin/env bash
# Submissions that lie about their speed (tests/fakes/forged/README.md) earn no
# performance points and are told why; the honest reference keeps full marks.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
REF="$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing"
FORGED="$PARLAB_SOURCE_DIR/tests/fakes/forged"

make_submission() {  # NAME: a correct, serial solution with one lie appended
  local dir="$W/sub-$1"
  mkdir -p "$dir"
  cp "$REF/worker_processes.hpp" "$dir/"
  sed 's/process_parallel(const std::vector/renamed_away_process_parallel(const std::vector/' \
    "$REF/file_stats.cpp" >"$dir/file_stats.cpp"
  [ "$1" = constructor_work ] || cat "$FORGED/serial_process_parallel.cpp" >>"$dir/file_stats.cpp"
  cat "$FORGED/$1.cpp" >>"$dir/file_stats.cpp"
  echo "$dir"
}

for lie in clock_interposer constructor_work timings_writer; do
  sub=$(make_submission "$lie")
  run_grade "$lie" lab01 "$sub" --work-dir "$W/work" --json "$W/$lie.json"
  # Correct but no faster than it really is: performance points lost, so exit 1.
  expect_rc "$lie" 1
  expect_json "$W/$lie.json" name '"parallel speedup"'
  # Every correctness test passed: the lie is only about speed.
  if grep -q '"status": "failed"' "$W/$lie.json" && grep -B3 '"kind": "correctness"' "$W/$lie.json" | grep -q '"status": "failed"'; then
    fail "$lie: a correctness test failed (the fake should be correct)"
  fi
  expect_in "$W/$lie.out" "timing not trusted" "$lie: the report says the timing is not trusted"
  # No performance test earned a point.
  perf_points=$(python3 - "$W/$lie.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(sum(t["points"] for t in r["tests"] if t["kind"] == "performance"))
PY
)
  [ "$perf_points" = "0" ] || [ "$perf_points" = "0.0" ] && pass "$lie: no performance points" \
    || fail "$lie: earned $perf_points performance points"
done
finish
