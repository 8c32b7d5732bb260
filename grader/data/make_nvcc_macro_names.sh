#!/usr/bin/env bash
# Writes nvcc_macro_names.txt: the macros nvcc or the CUDA headers the simulator also
# provides define, for the host or a GPU, that g++ and the C and C++ standard headers do
# not (or define otherwise). A sim build
# made without nvcc cannot compare its view of a source with nvcc's, so it grades a
# source only when none of its conditionals reads one of these (compile/
# conditional_macros). Run it where nvcc is, after a CUDA update:
#   bash grader/data/make_nvcc_macro_names.sh [NVCC] > grader/data/nvcc_macro_names.txt
# The unit test conditional_macros_test checks the list against the build's nvcc.
set -euo pipefail
nvcc=${1:-nvcc}
here=$(cd "$(dirname "$0")" && pwd)
include=$(dirname "$(command -v "$nvcc")")/../include
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every header the simulator provides, as a student includes it.
(cd "$here/../../sim/include/cuda_compat" && find . -name '*.h' -o -name '*.hpp' -o -type f ! -name '*.*') |
  sed 's|^\./||' | sort | while read -r h; do
    # The simulator's stand-ins for libraries it does not support have nvcc's names but
    # may not exist or compile in nvcc's toolkit: only those nvcc has.
    [ -e "$include/$h" ] || [ -e "$include/cccl/$h" ] && echo "#if __has_include(<$h>)
#include <$h>
#endif"
  done > "$work/all.cu"
defines() { sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\)/\1/p' | sort -u; }
{
  "$nvcc" -std=c++17 -E -Xcompiler=-dM "$work/all.cu" -o - 2>/dev/null
  for arch in 75 90 120; do
    "$nvcc" -std=c++17 -E -Xcompiler=-dM --cuda -arch=sm_$arch "$work/all.cu" -o - 2>/dev/null || true
  done
} | defines > "$work/nvcc.txt"
# The standard headers those pull in, as g++ defines them.
printf '#include <%s>\n' cstdio cstdlib cstring cmath cfloat climits cstdint cstddef cassert \
  iostream vector string algorithm utility memory atomic thread mutex chrono functional \
  type_traits limits new initializer_list tuple array numeric pthread.h unistd.h fcntl.h \
  dlfcn.h signal.h sched.h time.h sys/types.h sys/stat.h sys/time.h \
  > "$work/std.cpp"
g++ -std=c++17 -E -dM "$work/std.cpp" -o - | defines > "$work/gxx.txt"
# Defined by one of nvcc's passes and not by g++ with the same text. (A header nvcc has
# and the simulator does not fails a sim build anyway: only these headers matter.)
comm -13 "$work/gxx.txt" "$work/nvcc.txt" | cut -d' ' -f1 | sed 's/(.*//' | sort -u
