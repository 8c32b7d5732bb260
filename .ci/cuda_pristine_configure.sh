#!/usr/bin/env bash
# CI check: parlab configures with CUDA 13 against Debian's *unmodified*
# FindCUDAToolkit.cmake (cmake-data), not a locally edited copy. No GPU needed: nvcc
# is enough. Fetches the cmake-data package matching the installed cmake with
# `apt-get download`, extracts its Modules folder and puts it first on CMAKE_MODULE_PATH, then
#   1. control: a two-line project that calls find_package(CUDAToolkit) with
#      cmake_minimum_required 3.25 (reports whether this nvcc shows the bug), and
#   2. parlab's own configure, which must succeed, with a trace proving the pristine
#      module was the one read.
# Without nvcc it prints SKIP and exits 0, or fails with PARLAB_REQUIRE_CUDA_CHECK=1.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD

nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "cuda-pristine: SKIP: no nvcc on this machine (PATH or /usr/local/cuda/bin)"
  [ "${PARLAB_REQUIRE_CUDA_CHECK:-0}" = 1 ] && { echo "cuda-pristine: nvcc required" >&2; exit 1; }
  exit 0
fi

scratch=$(mktemp -d /tmp/parlab-cuda-pristine.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
version=$(dpkg-query -W -f='${Version}' cmake-data)
cd "$scratch"
if ! apt-get download -qq "cmake-data=$version" 2>/dev/null; then
  # A container that dropped its package lists (rm -rf /var/lib/apt/lists) needs them back.
  apt-get update -qq
  apt-get download -qq "cmake-data=$version"
fi
dpkg-deb -x cmake-data_*.deb extracted
module=$(find extracted/usr/share -name FindCUDAToolkit.cmake -path '*/Modules/*' | head -n1)
[ -n "$module" ] || { echo "cuda-pristine: no FindCUDAToolkit.cmake in cmake-data $version" >&2; exit 1; }
# The whole Modules folder: the module includes its neighbours by its own path.
ln -s "$PWD/$(dirname "$module")" modules
echo "cuda-pristine: cmake-data $version, $("$nvcc" --version | grep -o 'release [0-9.]*')"
if cmp -s modules/FindCUDAToolkit.cmake "/usr/share/cmake-${version%.*}/Modules/FindCUDAToolkit.cmake" 2>/dev/null ||
   cmp -s modules/FindCUDAToolkit.cmake "$(cmake --system-information 2>/dev/null | sed -n 's/^CMAKE_ROOT "\(.*\)"$/\1/p')/Modules/FindCUDAToolkit.cmake"; then
  echo "cuda-pristine: this machine's module is the pristine one"
else
  echo "cuda-pristine: this machine's module differs from Debian's (a local edit): testing Debian's"
fi

# 1. The control: does this CUDA break the pristine module at all?
mkdir control
cat > control/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(control LANGUAGES CXX)
find_package(CUDAToolkit REQUIRED)
CMAKE
if cmake -S control -B control/build -DCMAKE_MODULE_PATH="$scratch/modules" \
     -DCUDAToolkit_ROOT="$(dirname "$(dirname "$nvcc")")" > control.log 2>&1; then
  echo "cuda-pristine: control: this CUDA does not trigger the nvToolsExt bug (parlab must still configure)"
elif grep -q "CUDA::nvToolsExt" control.log; then
  echo "cuda-pristine: control: the pristine module fails on CUDA 13 (CUDA::nvToolsExt)"
else
  cat control.log >&2
  echo "cuda-pristine: control failed for another reason" >&2
  exit 1
fi

# 2. parlab itself, against the same pristine module.
if ! cmake -S "$src" -B parlab-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_MODULE_PATH="$scratch/modules" -DCMAKE_CUDA_COMPILER="$nvcc" \
     --trace-source="$scratch/modules/FindCUDAToolkit.cmake" --trace-redirect=trace.log \
     > parlab.log 2>&1; then
  cat parlab.log >&2
  echo "cuda-pristine: FAIL: parlab does not configure with the pristine FindCUDAToolkit" >&2
  exit 1
fi
grep -q "parlab: CUDA enabled" parlab.log || { cat parlab.log >&2; echo "cuda-pristine: FAIL: CUDA not enabled" >&2; exit 1; }
[ -s trace.log ] || { echo "cuda-pristine: FAIL: the pristine module was not the one read" >&2; exit 1; }
echo "cuda-pristine: PASS: parlab configures with CUDA against Debian's pristine FindCUDAToolkit.cmake"
