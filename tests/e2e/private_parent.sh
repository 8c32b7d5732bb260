#!/usr/bin/env bash
# A work dir under a private parent (what a clone under /root, mode 0700, gives):
# as root, the grader bridges the parent in each child's own mount namespace, so the
# sandbox's pool uid reaches the work dir without /root's mode changing.
# A private work dir itself cannot be bridged: exit 3 naming it. Skips (77) when not root.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
[ "$(id -u)" = 0 ] || { echo "skip: not root (children run as the grader's own user)"; exit 77; }
mkdir -m 700 "$W/private"

for level in auto off; do
  run_grade "ref-$level" lab01 --reference --no-perf --sandbox "$level" --work-dir "$W/private/work-$level" --json "$W/$level.json"
  expect_rc "ref-$level" 0
  expect_field "$W/$level.json" score 60 "--sandbox $level: the reference scores 60 under a private parent"
  expect_no_test "$W/$level.json" "failed|partial" "--sandbox $level: the reference's correctness tests pass under a private parent"
done
expect_field "$W/auto.json" host.sandbox bubblewrap "the bridge works under bubblewrap too"
[ "$(stat -c %a "$W/private")" = 700 ] && pass "the private parent keeps its mode" || fail "mode of $W/private changed"

# The skeleton still compiles (the compiler runs in the sandbox) and fails its tests.
run_grade skeleton lab01 --no-perf --work-dir "$W/private/work-skeleton"
expect_rc skeleton 1

mkdir -m 700 "$W/private/closed"
run_grade closed lab01 --reference --no-perf --work-dir "$W/private/closed"
expect_rc closed 3
# text: an error printed before any report exists
expect_in "$W/closed.err" "closed has mode 700 \(it is the work dir itself\)" "a private work dir itself is named"
finish
