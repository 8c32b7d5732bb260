#!/usr/bin/env bash
# The fakes made from the reference at test time (tests/fakes/make_fake.sh): every
# tests/fakes/**/*.patch still applies to the current reference and changes it, and a
# patch that no longer applies fails loudly, naming the fake (never a silent skip).
# No grading: the e2e tests that grade each fake say what it must score.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
MAKE="$PARLAB_SOURCE_DIR/tests/fakes/make_fake.sh"

# 1. Every patch applies, and its file differs from the reference's.
while IFS= read -r patch; do
  fake=${patch#"$PARLAB_SOURCE_DIR/tests/fakes/"}
  fake=${fake%.patch}
  lab=$(grep -o 'lab0[0-9]' <<<"$fake" | head -1)
  if bash "$MAKE" "$lab" "$fake" "$W/$fake" 2>"$W/make.err"; then
    # text: the patch file's first line (its intent) is the subject
    head -1 "$patch" | grep -q '^# ' || fail "$fake: the patch's first line is not its intent ('# ...')"
    changed=0
    for f in "$W/$fake"/*; do
      cmp -s "$f" "$(ls -d "$PARLAB_SOURCE_DIR"/reference/"$lab"-*)/$(basename "$f")" || changed=1
    done
    [ "$changed" = 1 ] && pass "$fake applies to the $lab reference" || fail "$fake: no file differs from the reference"
  else
    fail "$fake does not apply"; sed 's/^/  | /' "$W/make.err" >&2
  fi
done < <(find "$PARLAB_SOURCE_DIR/tests/fakes" -name '*.patch' | sort)

# 2. A stale patch (its context no longer in the reference) is an error naming it.
T="$W/stale_tree"
mkdir -p "$T/tests/fakes/lab04"
cp "$MAKE" "$T/tests/fakes/"
ln -s "$PARLAB_SOURCE_DIR/labs" "$T/labs"
ln -s "$PARLAB_SOURCE_DIR/reference" "$T/reference"
cat >"$T/tests/fakes/lab04/stale.patch" <<'PATCH'
# stale: a line the reference no longer has
--- a/histogram.cu
+++ b/histogram.cu
@@ -1,3 +1,3 @@
 // a line that is not in the reference
-// another one
+// changed
 // and a third
PATCH
bash "$T/tests/fakes/make_fake.sh" lab04 lab04/stale "$W/stale" >"$W/stale.out" 2>&1
echo $? >"$W/stale.rc"
expect_rc stale 1
# text: make_fake.sh's error (no grading, no report) is what is checked
expect_in "$W/stale.out" "fake 'lab04/stale': tests/fakes/lab04/stale.patch no longer applies" "a stale patch names the fake"
# 3. Bad arguments are named.
bash "$MAKE" lab04 lab04/no_such_fake "$W/none" >"$W/unknown.out" 2>&1; echo $? >"$W/unknown.rc"
expect_rc unknown 2
# text: make_fake.sh's usage error
expect_in "$W/unknown.out" "unknown fake 'lab04/no_such_fake'" "an unknown fake is named"
bash "$MAKE" lab99 reference "$W/none" >"$W/nolab.out" 2>&1; echo $? >"$W/nolab.rc"
expect_rc nolab 2
# text: make_fake.sh's usage error
expect_in "$W/nolab.out" "unknown lab 'lab99'" "an unknown lab is named"
finish
