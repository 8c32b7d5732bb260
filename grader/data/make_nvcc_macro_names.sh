#!/usr/bin/env bash
# Writes the lists a sim build made without nvcc reads (compile/nvcc_macro_names,
# compile/sim_without_nvcc). It cannot compare its view of a source with nvcc's, so it
# grades a source only when its conditionals decide alike for the simulator and a GPU:
#   nvcc_macro_names.txt  the macros nvcc, or the CUDA headers the simulator also
#                         provides, define for the host or a GPU that g++ and the C and
#                         C++ standard headers do not (or define otherwise): their values
#                         may differ;
#   defined_in_one.txt    the macros one of nvcc's passes (host, sm_75, sm_90, sm_120) or
#                         the simulator defines and the other does not, in a .cu file that
#                         includes nothing or one that includes any one header the
#                         simulator implements (nvcc's own, the simulator's PARLAB_SIM, the
#                         guards of the standard headers its prelude includes, its flags'
#                         __SANITIZE_THREAD__): even #ifdef decides apart on them.
# Run it where nvcc is, after a CUDA update or a change of the simulator's headers or
# flags, with a configured build (its toolchain.json says how the simulator compiles):
#   bash grader/data/make_nvcc_macro_names.sh BUILD_DIR [NVCC]
# conditional_macros_test checks the lists against the build's nvcc and simulator.
set -euo pipefail
build=$(cd "$1" && pwd)
nvcc=${2:-nvcc}
here=$(cd "$(dirname "$0")" && pwd)
sim_include=$here/../../sim/include
include=$(dirname "$(command -v "$nvcc")")/../include
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
defines() { sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\)/\1/p' | sort -u; }
names() { cut -d' ' -f1 | sed 's/(.*//' | sort -u; }
nvcc_has() { [ -e "$include/$1" ] || [ -e "$include/cccl/$1" ]; }

# Every header the simulator provides, as a student includes it; "real": those it
# implements (the others hold only an #error saying it is not supported).
(cd "$sim_include/cuda_compat" && find . -type f | sed 's|^\./||' | sort) > "$work/headers.txt"
: > "$work/all.cu"
: > "$work/real.txt"
while read -r h; do
  nvcc_has "$h" || continue
  printf '#if __has_include(<%s>)\n#include <%s>\n#endif\n' "$h" "$h" >> "$work/all.cu"
  grep -q '#error' "$sim_include/cuda_compat/$h" || echo "$h" >> "$work/real.txt"
done < "$work/headers.txt"

nvcc_passes() {  # SOURCE PREFIX: one define list per pass of nvcc, PREFIX-host.txt, PREFIX-75.txt, ...
  "$nvcc" -std=c++20 -E -Xcompiler=-dM "$1" -o - 2>/dev/null | defines > "$2-host.txt"
  for arch in 75 90 120; do
    "$nvcc" -std=c++20 -E -Xcompiler=-dM --cuda -arch=sm_$arch "$1" -o - 2>/dev/null | defines > "$2-$arch.txt"
  done
}
nvcc_passes "$work/all.cu" "$work/all"
sort -u "$work"/all-*.txt > "$work/nvcc.txt"
# The standard headers those pull in, as g++ defines them.
printf '#include <%s>\n' cstdio cstdlib cstring cmath cfloat climits cstdint cstddef cassert \
  iostream vector string algorithm utility memory atomic thread mutex chrono functional \
  type_traits limits new initializer_list tuple array numeric pthread.h unistd.h fcntl.h \
  dlfcn.h signal.h sched.h time.h sys/types.h sys/stat.h sys/time.h \
  > "$work/std.cpp"
g++ -std=c++20 -E -dM "$work/std.cpp" -o - | defines > "$work/gxx.txt"
# Defined by one of nvcc's passes and not by g++ with the same text. (A header nvcc has
# and the simulator does not fails a sim build anyway: only these headers matter.)
comm -13 "$work/gxx.txt" "$work/nvcc.txt" | names > "$here/nvcc_macro_names.txt"

# How the simulator compiles a .cu file (its flags, headers and prelude).
read -r cxx std sim_flags < <(python3 - "$build/toolchain.json" <<'PY'
import json, shlex, sys
t = json.load(open(sys.argv[1]))
s = t["sim"]
flags = [*t["cxx_flags"], *s["check_flags"], *s["divergence_flags"]]
print(t["cxx"], "-std=" + t["cxx_standard"], shlex.join(flags + ["-I" + d for d in s["include"]] +
      ["-include", s["prelude"], "-include", "parlab_sim/nvcc_macros.hpp"]))
PY
)

# Per .cu file: empty, then each implemented header alone; the names each compiler defines.
i=0
for h in "" $(cat "$work/real.txt"); do
  i=$((i + 1))
  if [ -n "$h" ]; then printf '#include <%s>\n' "$h"; fi > "$work/case$i.cu"
  nvcc_passes "$work/case$i.cu" "$work/case$i"
  eval "\"$cxx\" $std $sim_flags -E -dM -x c++ \"$work/case$i.cu\"" | defines | names > "$work/case$i-sim.txt"
  for pass in "$work/case$i"-{host,75,90,120}.txt; do
    # The names defined by one and not the other, in this file and pass.
    names < "$pass" | comm -3 - "$work/case$i-sim.txt" | tr -d '\t'
  done
done | sort -u > "$here/defined_in_one.txt"
