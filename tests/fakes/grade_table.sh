#!/usr/bin/env bash
# grade_table.sh GRADE RESULTS [LAB_REGEX]: grades, in sim, every line of the fake table
# once: tests/agreement/verdicts.tsv (each line with --no-perf) and tests/fakes/gradings.tsv
# (lab, submission, mode). A line's grading goes to RESULTS/LAB/SUBMISSION/MODE
# (fake_results.bash): result.json, stdout, stderr, rc and the submission folder as made;
# `nofake` (the maker's error) where the fake could not be made. Every grading adds one
# line to RESULTS/ledger.tsv, which tests/fakes/check_graded_once.py reads.
# The CTest fixture "e2e: fake gradings" runs it before the sim checks that read it
# (tests/CMakeLists.txt). FAKE_GRADING_JOBS=N grades N at a time (default: the cores;
# correctness and scored counters only, so no timing suffers). The gradings of one mode
# share a work folder (RESULTS/work/MODE) and with it the generated datasets; a
# submission's build folder is per path, and one mode grades a path once, so no two
# concurrent gradings share a build (the references' two modes included).
# Each passing GPU test is re-run in one other order, not the grader's default two
# (FAKE_GRADING_ORDER_RERUNS=N for more): the re-runs were a third of the table's time,
# and the fakes' verdicts rest on them once, not twice: one re-run still puts every
# fake's answers through a second order (a correct fake must not fail there), and the
# default of two is what every other sim grading of the suite runs (sim_findings.sh
# asserts a failure only a re-run finds).
# Exit 0: every line graded; 1: some fake could not be made or left no result.json.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 GRADE RESULTS [LAB_REGEX]" >&2; exit 2; }
GRADE=$1 RESULTS=$2 FILTER=${3:-.}
JOBS=${FAKE_GRADING_JOBS:-$(nproc)}
RERUNS=${FAKE_GRADING_ORDER_RERUNS:-1}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "FAKE_GRADING_JOBS must be a positive number, not '$JOBS'" >&2; exit 2; }
[[ "$RERUNS" =~ ^([0-9]|10)$ ]] || { echo "FAKE_GRADING_ORDER_RERUNS must be a number from 0 to 10, not '$RERUNS'" >&2; exit 2; }
export PARLAB_SIM_ORDER_RERUNS=$RERUNS
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/tests/fakes/fake_results.bash"
rm -rf "$RESULTS"
mkdir -p "$RESULTS/work"
chmod 755 "$RESULTS"  # children run as nobody when the tests run as root (docs/sandbox.md)

# The table's lines, "LAB<TAB>SUBMISSION<TAB>MODE", each once, in table order.
table_lines() {
  awk -F'\t' '!/^#/ && NF >= 2 { print $1 "\t" $2 "\t--no-perf" }' "$ROOT/tests/agreement/verdicts.tsv"
  awk -F'\t' '!/^#/ && NF >= 3 { print $1 "\t" $2 "\t" $3 }' "$ROOT/tests/fakes/gradings.tsv"
}

# make_submission LAB SUBMISSION DIR: the fake as a submission folder.
make_submission() {
  case "$2" in
    hint_causes/*) bash "$ROOT/tests/fakes/hint_causes/make_submission.sh" "${2#hint_causes/}" "$3" ;;
    shortcuts/*) bash "$ROOT/tests/fakes/shortcuts/make_submission.sh" "${2#shortcuts/}" "$3" ;;
    *) bash "$ROOT/tests/fakes/make_fake.sh" "$1" "$2" "$3" ;;
  esac
}

grade_line() {  # LAB SUBMISSION MODE
  local lab=$1 submission=$2 mode=$3 dir target opts=()
  dir=$(fake_result_dir "$RESULTS" "$lab" "$submission" "$mode")
  mkdir -p "$dir"
  if [ "$submission" = reference ]; then
    target=(--reference)
  elif make_submission "$lab" "$submission" "$dir/submission" >"$dir/nofake" 2>&1; then
    rm "$dir/nofake"
    target=("$dir/submission")
  else
    return
  fi
  [ "$mode" = - ] || read -ra opts <<<"$mode"
  "$GRADE" "$lab" "${target[@]}" --device sim "${opts[@]}" --work-dir "$RESULTS/work/$(fake_mode_folder "$mode")" \
    --json "$dir/result.json" >"$dir/stdout" 2>"$dir/stderr"
  echo $? >"$dir/rc"
  # One short line in append mode: concurrent gradings' lines do not interleave.
  printf '%s\t%s\t%s\n' "$lab" "$submission" "$mode" >>"$RESULTS/ledger.tsv"
}

mapfile -t lines < <(table_lines | awk '!seen[$0]++')
running=0 graded=0
: >"$RESULTS/ledger.tsv"
for line in "${lines[@]}"; do
  IFS=$'\t' read -r lab submission mode <<<"$line"
  [[ "$lab" =~ $FILTER ]] || continue
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  grade_line "$lab" "$submission" "$mode" &
  running=$((running + 1)) graded=$((graded + 1))
done
wait

problems=0
for line in "${lines[@]}"; do
  IFS=$'\t' read -r lab submission mode <<<"$line"
  [[ "$lab" =~ $FILTER ]] || continue
  dir=$(fake_result_dir "$RESULTS" "$lab" "$submission" "$mode")
  if [ -e "$dir/nofake" ]; then
    echo "FAIL: $lab $submission could not be made:"; sed 's/^/  | /' "$dir/nofake"
    problems=$((problems + 1))
  elif [ ! -s "$dir/result.json" ]; then
    echo "FAIL: $lab $submission ($mode) left no result.json (exit $(cat "$dir/rc")):"
    tail -20 "$dir/stderr" | sed 's/^/  | /'
    problems=$((problems + 1))
  else
    echo "graded    $lab $submission ($mode): exit $(cat "$dir/rc")"
  fi
done
echo "$graded line(s) graded in sim, $JOBS at a time, $problems problem(s), into $RESULTS"
[ "$problems" -eq 0 ]
