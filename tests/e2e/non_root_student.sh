#!/usr/bin/env bash
# A student who is not root on a shared install: the default work dir is
# their own cache ($XDG_CACHE_HOME/parlab, else ~/.cache/parlab), and a work dir they
# cannot write is exit 3 with the fix, never "internal" (exit 4).
# As root the gradings run as nobody; as anyone else, as that user. Skips (77) when
# nobody cannot reach the grade binary (a clone under a private folder such as /root).
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
if [ "$(id -u)" = 0 ]; then
  if ! id nobody >/dev/null 2>&1; then echo "skipped: no user nobody to run as"; exit 77; fi
  if ! su nobody -s /bin/bash -c "test -x '$GRADE'"; then
    echo "skipped: nobody cannot reach $GRADE (a private parent folder)"; exit 77
  fi
  as_student() { su nobody -s /bin/bash -c "$1"; }
else
  as_student() { bash -c "$1"; }
fi
# run_as_student NAME HOME XDG_CACHE_HOME|- ARGS...: grade as the student, results kept like run_grade's.
run_as_student() {
  local name=$1 home=$2 xdg=$3; shift 3
  local env_args="env -u XDG_CACHE_HOME HOME='$home'"
  [ "$xdg" != - ] && env_args="$env_args XDG_CACHE_HOME='$xdg'"
  local quoted=""; for a in "$@"; do quoted="$quoted '$a'"; done
  mkdir -p "$W/runs" && chmod 777 "$W/runs"
  as_student "$env_args '$GRADE' $quoted >'$W/runs/$name.out' 2>'$W/runs/$name.err'; echo \$? >'$W/runs/$name.rc'"
  cp "$W/runs/$name.out" "$W/runs/$name.err" "$W/runs/$name.rc" "$W/"
}
mkdir -p "$W/xdg" "$W/home" "$W/reports" "$W/rohome" "$W/rowork"
chmod 777 "$W/xdg" "$W/home" "$W/reports"
chmod 555 "$W/rohome" "$W/rowork"

# XDG_CACHE_HOME set: the work goes to $XDG_CACHE_HOME/parlab.
run_as_student xdg "$W/rohome" "$W/xdg" lab01 --no-perf --json "$W/reports/xdg.json"
expect_rc xdg 1
# text: an internal error is the grader's own stderr, in no report field
expect_not_in "$W/xdg.err" "internal" "no internal error for a non-root student"
[ -d "$W/xdg/parlab/lab01" ] && pass "work dir is \$XDG_CACHE_HOME/parlab" || fail "no $W/xdg/parlab/lab01"
expect_status "$W/reports/xdg.json" "single file" "failed" "the skeleton graded (a test failed, not an error)"

# No XDG_CACHE_HOME: ~/.cache/parlab.
run_as_student home "$W/home" - lab01 --no-perf --json "$W/reports/home.json"
expect_rc home 1
[ -d "$W/home/.cache/parlab/lab01" ] && pass "work dir is ~/.cache/parlab" || fail "no $W/home/.cache/parlab/lab01"

# A home the student cannot write (no XDG_CACHE_HOME): exit 3, the fix named.
run_as_student rohome "$W/rohome" - lab01 --no-perf
expect_rc rohome 3
# text: an error printed before any report exists
expect_in "$W/rohome.err" "^grade: error: work dir $W/rohome/.cache/parlab cannot be created .*--work-dir" "uncreatable work dir: exit 3 with the fix"

# --work-dir naming a folder the student cannot write: exit 3, for grade and grade batch.
run_as_student rowork "$W/home" - lab01 --no-perf --work-dir "$W/rowork"
expect_rc rowork 3
# text: an error printed before any report exists
expect_in "$W/rowork.err" "^grade: error: work dir $W/rowork is not writable .*--work-dir" "unwritable --work-dir: exit 3 with the fix"
mkdir -p "$W/class/alice" && cp "$PARLAB_SOURCE_DIR"/labs/lab01-multiprocessing/skeleton/* "$W/class/alice/"
chmod -R a+rX "$W/class"
run_as_student robatch "$W/home" - batch lab01 "$W/class" --out "$W/reports/out" --work-dir "$W/rowork" --no-perf
expect_rc robatch 3
# text: an error printed before any report exists
expect_in "$W/robatch.err" "^grade: error: work dir $W/rowork is not writable" "batch: unwritable --work-dir: exit 3"
finish
