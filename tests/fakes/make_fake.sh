#!/usr/bin/env bash
# make_fake.sh LAB FAKE OUTDIR: writes the submission FAKE (a name under tests/fakes/,
# e.g. lab04/histogram_race) of LAB (lab02..lab06) into OUTDIR, made from the current
# reference so that a change of the reference cannot leave the fake stale:
#   1. the reference's files a submission provides (lab.toml's sources, and the device
#      headers beside them, lab04's block_reduce.cuh);
#   2. then tests/fakes/FAKE.patch applied to them (a unified diff, first line: the
#      fake's intent), or, for a fake whose point is its own files or layout, the
#      folder tests/fakes/FAKE copied over them. FAKE "reference" stops after step 1.
# A patch that no longer applies exactly is an error naming the fake (exit 1), never a
# skip. Used by the e2e tests (lib.bash, fake_submission), tests/agreement and tests/gpu.
set -euo pipefail
die() { echo "make_fake.sh: $*" >&2; exit "${2:-1}"; }
[ $# -eq 3 ] || die "usage: make_fake.sh LAB FAKE OUTDIR (e.g. lab04 lab04/histogram_race /tmp/x)" 2
lab=$1 fake=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
fakes="$root/tests/fakes"

lab_dir=$(ls -d "$root"/labs/"$lab"-* 2>/dev/null | head -1 || true)
ref_dir=$(ls -d "$root"/reference/"$lab"-* 2>/dev/null | head -1 || true)
[ -n "$lab_dir" ] && [ -n "$ref_dir" ] || die "unknown lab '$lab' (no labs/$lab-* and reference/$lab-*)" 2
patch_file="$fakes/$fake.patch"
[ "$fake" = reference ] || [ -f "$patch_file" ] || [ -d "$fakes/$fake" ] ||
  die "unknown fake '$fake' (neither tests/fakes/$fake.patch nor the folder tests/fakes/$fake)" 2

mkdir -p "$out"
sources=$(python3 -c 'import sys, tomllib; print(" ".join(tomllib.load(open(sys.argv[1], "rb"))["lab"]["sources"]))' \
  "$lab_dir/lab.toml")
for f in $sources; do
  [ -f "$ref_dir/$f" ] && cp "$ref_dir/$f" "$out/"
done
for h in "$ref_dir"/*.cuh; do
  [ -f "$h" ] && cp "$h" "$out/"
done

if [ "$fake" = reference ]; then
  :
elif [ -f "$patch_file" ]; then
  command -v patch >/dev/null || die "fake '$fake': the 'patch' program is missing (containers/install-deps.sh installs it)"
  # --fuzz=0: the context must match exactly (a moved line is fine), so a patch never
  # lands on the wrong line of a changed reference.
  if ! log=$(patch --batch --forward --fuzz=0 --no-backup-if-mismatch --reject-file=- -p1 \
               -d "$out" <"$patch_file" 2>&1); then
    die "fake '$fake': tests/fakes/$fake.patch no longer applies to $(basename "$ref_dir"); remake it against the current reference:
$(echo "$log" | sed 's/^/  | /')"
  fi
else
  cp -r "$fakes/$fake/." "$out/"
fi
