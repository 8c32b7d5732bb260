#!/usr/bin/env bash
# A lab03 class for `grade similarity` (docs/batch.md, "Similarity"): the reference,
# disguised copies of it, independent solutions and a skeleton-only submission.
#   tests/similarity/make_class.sh PARLAB_SOURCE_DIR OUT_DIR
set -euo pipefail
src=${1:?source dir}; out=${2:?output dir}
ref=$src/reference/lab03-cuda-kernels/kernels.cu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$out"; mkdir -p "$out"
mk() { mkdir -p "$out/$1"; cat > "$out/$1/kernels.cu"; }

mk original < "$ref"
# Renamed identifiers and changed comments.
sed -E 's/\bkBlock\b/THREADS/g; s/\bblocks_for\b/num_blocks/g; s/\bgrid_2d\b/make_grid/g;
        s/\bidx\b/gid/g; s/\bn\b/count/g; s/\balpha\b/scale/g; s/\bnx\b/width/g; s/\bny\b/height/g;
        s#//.*#// my own work#' "$ref" | mk renamed
# Reformatted: one statement per line broken, blank lines doubled, indentation changed.
sed -E 's/^  /\t/; s/\{$/\n{/; s/^$/\n/' "$ref" | mk reformatted
# Functions reordered: the file's top-level blocks (separated by blank lines) reversed
# after the preamble, with renaming on top.
awk 'BEGIN{RS=""; ORS="\n\n"} {b[NR]=$0} END{for(i=1;i<=4&&i<=NR;i++) print b[i]; for(i=NR;i>4;i--) print b[i]}' "$ref" |
  sed -E 's/\bidx\b/k/g; s/\bout\b/dst/g' | mk reordered
# The reference author's second version (faster kernels, same helpers and loop: not
# independent, between a copy and a stranger), and an independent solution.
mk same_author_variant < "$src/reference/lab03-cuda-kernels/variants.cu"
mk independent_plain < "$here/independent_kernels.cu"
# The skeleton unchanged: shares only the handed-out code with everyone.
mk skeleton_only < "$src/labs/lab03-cuda-kernels/skeleton/kernels.cu"
