#!/usr/bin/env bash
# Nothing a submission's uid does outlives its grading (docs/sandbox.md, "Nothing left
# behind"), graded as root at `--sandbox off`, at `--sandbox auto` without bubblewrap
# and at the default level: lab01 fakes with no lab code that keep answers in the
# kernel's key store (keyring_answers) or in files nested in shared folders
# (nested_litter) for a later run find nothing in a later run or grading, and nothing
# of theirs is left; one that tries to hold the measurement lock hostage
# (lock_hostage) may neither open the lock files nor write a holder line.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
[ "$(id -u)" = 0 ] || { echo "skipped: needs a root grader (the uid pool)"; exit 77; }
SEALED="$PARLAB_SOURCE_DIR/tests/fakes/sandbox"
# lock_hostage is graded with its own lock folder (PARLAB_LOCK_DIR, made by the
# grader as it would make /run/parlab/locks), the others with the default one.
LOCKS="$W/locks"
unset PARLAB_LOCK_DIR
# Someone's world-writable folder below /tmp, as a lab's shared scratch folder would be.
NEST=$(mktemp -d /tmp/parlab-e2e-nest.XXXXXX)
chmod 1777 "$NEST"
trap 'rm -rf "$NEST"' EXIT
for fake in keyring_answers nested_litter lock_hostage; do
  mkdir -p "$W/$fake"
  sed -e "s|@NEST_DIR@|$NEST|g" -e "s|@LOCK_DIR@|$LOCKS|g" "$SEALED/$fake/file_stats.cpp" >"$W/$fake/file_stats.cpp"
done

grade_at() {  # LEVEL NAME FAKE: off, fallback (auto without bubblewrap) or default
  local args=(lab01 "$W/$3" --no-perf --wall-limit 10 --work-dir "$W/work" --json "$W/$2.json")
  case $1 in
    off) PARLAB_BWRAP=/nonexistent/bwrap run_grade "$2" "${args[@]}" --sandbox off ;;
    fallback) PARLAB_BWRAP=/nonexistent/bwrap run_grade "$2" "${args[@]}" --sandbox auto ;;
    default) run_grade "$2" "${args[@]}" ;;
  esac
  [ -s "$W/$2.json" ] || { fail "$2: no result"; sed 's/^/  | /' "$W/$2.err" | tail -20 >&2; }
}
# Keys (not keyrings: @u and @us stay, empty) of the uids a grading leased (its
# report's isolation note), as each uid sees them. Only those: other graders of the
# machine use the pool too.
keys_left_by() {  # NAME
  local note uid
  note=$(result_field "$W/$1.json" host isolation 2>/dev/null)
  [[ "$note" =~ uid\ ([0-9]+),\ reference\ uid\ ([0-9]+) ]] || { echo "no uid in '$note'"; return; }
  for uid in "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"; do
    setpriv --reuid="$uid" --regid="$uid" --clear-groups cat /proc/keys 2>/dev/null |
      awk -v uid="$uid" '$6 == uid && $8 != "keyring"'
  done
}

for level in off fallback default; do
  grade_at "$level" "keys1_$level" keyring_answers
  grade_at "$level" "keys2_$level" keyring_answers
  expect_output "$W/keys1_$level.json" 'KEYRING: empty' "keyring_answers at $level ran and kept its keys"
  expect_no_output "$W/keys1_$level.json" 'KEYRING: found' "keyring_answers at $level: no run finds an earlier run's keys"
  expect_no_output "$W/keys2_$level.json" 'KEYRING: found' "keyring_answers at $level: the next grading finds none"
  left=$(keys_left_by "keys1_$level"; keys_left_by "keys2_$level")
  [ -z "$left" ] && pass "keyring_answers at $level: no key of its uids left" ||
    fail "keyring_answers at $level: keys left: $(head -3 <<<"$left")"

  grade_at "$level" "nest1_$level" nested_litter
  grade_at "$level" "nest2_$level" nested_litter
  expect_output "$W/nest1_$level.json" 'NESTED: empty' "nested_litter at $level ran"
  expect_no_output "$W/nest1_$level.json" 'NESTED: found' "nested_litter at $level: no run finds an earlier run's files"
  expect_no_output "$W/nest2_$level.json" 'NESTED: found' "nested_litter at $level: the next grading finds none"
  left=$(find "$NEST" /run/lock -maxdepth 1 -name 'parlab-nested-*' 2>/dev/null)
  [ -z "$left" ] && pass "nested_litter at $level: nothing left in $NEST and /run/lock" ||
    fail "nested_litter at $level: files left: $(head -3 <<<"$left")"

  PARLAB_LOCK_DIR="$LOCKS" grade_at "$level" "hostage_$level" lock_hostage
  expect_output "$W/hostage_$level.json" 'HOSTAGE: gate refused; HOSTAGE: holder refused' \
    "lock_hostage at $level: the lock files cannot be opened nor a holder written"
  expect_no_output "$W/hostage_$level.json" 'gate taken|holder written' "lock_hostage at $level: nothing taken"
  left=$(find "$LOCKS" ! -uid 0 2>/dev/null)
  [ -z "$left" ] && pass "lock_hostage at $level: nothing of a run's uid in $LOCKS" ||
    fail "lock_hostage at $level: in the lock folder: $(head -3 <<<"$left")"
done
expect_field "$W/keys1_default.json" host.sandbox 'bubblewrap' "the default level ran under bubblewrap"
for dir in "$LOCKS" /run/parlab/locks; do
  [ "$(stat -c '%u %a' "$dir")" = "0 700" ] && pass "the lock folder $dir is root's alone (0700)" ||
    fail "the lock folder $dir: $(stat -c '%U %a' "$dir")"
done
finish
