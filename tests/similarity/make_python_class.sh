#!/usr/bin/env bash
# A lab01 Python-track class for `grade similarity` (docs/batch.md, "Similarity"): the
# Python reference, copies disguised by renaming, reformatting, reordering and changed
# comments and docstrings, an independent solution and a skeleton-only submission.
#   tests/similarity/make_python_class.sh PARLAB_SOURCE_DIR OUT_DIR
set -euo pipefail
src=${1:?source dir}; out=${2:?output dir}
ref=$src/reference/lab01-multiprocessing/python/file_stats.py
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$out"; mkdir -p "$out"
mk() { mkdir -p "$out/$1"; cat > "$out/$1/file_stats.py"; }

mk py_original < "$ref"
# Renamed identifiers (not the API's names), comments and one-line docstrings replaced.
sed -E 's/\bpath\b/filename/g; s/\bpaths\b/files/g; s/\bvalues\b/numbers/g; s/\bvalue\b/number/g;
        s/\bmalformed\b/bad_rows/g; s/\b_parse_value\b/read_number/g; s/\b_stats_of\b/summarize/g;
        s/\bworkers\b/n_workers/g; s/\bcounter\b/next_index/g; s/\bstarted\b/procs/g;
        s/\breceive\b/rx/g; s/\bsend\b/tx/g; s/\bconn\b/channel/g; s/\bresults\b/out/g;
        s/\b_NUMBER_CHARS\b/ALLOWED/g; s/\bfirst\b/start/g; s/\bblock\b/chunk/g;
        s/  # .*$/  # my own work/; s/^( *)# .*$/\1# my own work/; s/"""[^"]+"""$/"""Does what it says."""/' "$ref" |
  mk py_renamed
# Reformatted: indentation halved to 2 spaces, blank lines doubled, spaces inside
# parentheses.
perl -pe 's/^( +)/" " x (length($1) \/ 2)/e; s/^$/\n/; s/\((?=\w)/( /g' "$ref" | mk py_reformatted
# Functions reordered (the top-level blocks after the imports and constant reversed),
# with two names changed on top.
awk 'BEGIN{RS=""; ORS="\n\n\n"} {b[NR]=$0} END{for(i=1;i<=4&&i<=NR;i++) print b[i]; for(i=NR;i>4;i--) print b[i]}' "$ref" |
  sed -E 's/\bprocess\b/proc/g; s/\bstats\b/st/g' | mk py_reordered
# A solution written apart from the reference, and the skeleton unchanged.
mk py_independent < "$here/independent_file_stats.py"
mk py_skeleton_only < "$src/labs/lab01-multiprocessing/skeleton/python/file_stats.py"
