#!/usr/bin/env bash
# make_gpu_fakes.sh OUTDIR: writes every submission of tests/gpu/fakes.tsv into
# OUTDIR/<lab>__<fake with / as _>/ and OUTDIR/list.tsv (folder name, then the line's
# columns), made here so that a GPU host needs neither patch nor perl:
#   bash tests/gpu/make_gpu_fakes.sh gpu-pack/fakes
#   bash tests/gpu/run_gpu_suite.sh --build build-gpu --fakes gpu-pack/fakes ...
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: make_gpu_fakes.sh OUTDIR}
mkdir -p "$out"
: >"$out/list.tsv"
grep -v '^#' "$root/tests/gpu/fakes.tsv" | while IFS=$'\t' read -r lab fake grading expect; do
  [ -n "$lab" ] || continue
  case "$grading" in
    perf | no-perf) ;;
    only:*)  # one performance test of the lab, by its exact name in lab.toml
      grep -qxF "name = \"${grading#only:}\"" "$root"/labs/"$lab"-*/lab.toml ||
        { echo "fakes.tsv: '${grading#only:}' ($fake) is no test of $lab's lab.toml" >&2; exit 2; } ;;
    *) echo "fakes.tsv: '$grading' for $fake is none of perf, no-perf, only:TEST" >&2; exit 2 ;;
  esac
  name="${lab}__${fake//\//_}"
  rm -rf "${out:?}/$name"
  if [[ "$fake" == */* ]]; then
    bash "$root/tests/fakes/make_fake.sh" "$lab" "$fake" "$out/$name" >/dev/null
  else
    bash "$root/tests/fakes/shortcuts/make_submission.sh" "$fake" "$out/$name" >/dev/null
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$lab" "$fake" "$grading" "$expect" >>"$out/list.tsv"
done
echo "make_gpu_fakes.sh: $(wc -l <"$out/list.tsv") submissions in $out"
