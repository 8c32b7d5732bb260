#!/usr/bin/env bash
# make_submission.sh LAB_SHORTCUT DIR: the reference of LAB (lab02..lab06) with every
# function's output replaced by a SHORTCUT answer, made from the reference at test time
# (tests/fakes/make_fake.sh) so it stays in step with the labs. Each function is renamed
# NAME_honest and wrapped: the wrapper runs it (so the launches, copies and return values
# stay as the driver expects) and then overwrites its outputs with
#   zeros     every element 0
#   constant  every element 1
#   nan       every element NaN (an int output: every byte 0xFF, -1)
#   copy      a copy of the function's first input array (cut or padded with zeros to
#             the output's size)
#   fp16      the honest output rounded to half precision (11 significant bits, to
#             nearest even): the answer of fp16 math at best; int outputs stay exact
# No shortcut answer may pass any correctness test it touches (docs/scoring.md,
# "Tolerances no shortcut fits"); tests/e2e/shortcut_answers.sh checks the gradings.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: make_submission.sh LAB_SHORTCUT DIR (e.g. lab03_zeros /tmp/x)" >&2; exit 2; }
lab=${1%%_*} shortcut=${1#*_} dir=$2
case "$shortcut" in
  zeros | constant | nan | copy | fp16) ;;
  *) echo "make_submission.sh: unknown shortcut '$shortcut' in '$1' (zeros, constant, nan, copy, fp16)" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../../.." && pwd)
bash "$root/tests/fakes/make_fake.sh" "$lab" reference "$dir"

# rename FILE NAME...: every NAME( in FILE becomes NAME_honest( (definition and calls).
rename() {
  local file=$1; shift
  for name in "$@"; do
    perl -pi -e "s/\\b$name\\(/${name}_honest(/g" "$dir/$file"
    grep -q "${name}_honest(" "$dir/$file" || { echo "make_submission.sh $1: no $name( in $file" >&2; exit 1; }
  done
}

# The helpers every wrapper calls, in an anonymous namespace of the file they end.
host_helpers() {
  cat <<CPP

// --- shortcut fake ($shortcut): the outputs are overwritten after the honest call ---
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
namespace {
enum class Shortcut { zeros, constant, nan, copy, fp16 };
constexpr Shortcut kShortcut = Shortcut::$shortcut;
// x rounded to 11 significant bits, to nearest even (half precision's mantissa).
inline float round_to_half(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  u = (u + 0x0FFFu + ((u >> 13) & 1u)) & ~0x1FFFu;
  std::memcpy(&x, &u, sizeof u);
  return x;
}
template <class T>
T shortcut_nan() {
  if constexpr (std::numeric_limits<T>::has_quiet_NaN) return std::numeric_limits<T>::quiet_NaN();
  else return T(-1);
}
// out[0..n) on the host, in[0..in_n) its first input.
template <class T, class U>
void shortcut_host(T* out, std::int64_t n, const U* in, std::int64_t in_n) {
  for (std::int64_t i = 0; i < n; ++i) {
    switch (kShortcut) {
      case Shortcut::zeros: out[i] = T(0); break;
      case Shortcut::constant: out[i] = T(1); break;
      case Shortcut::nan: out[i] = shortcut_nan<T>(); break;
      case Shortcut::copy: out[i] = i < in_n ? T(in[i]) : T(0); break;
      case Shortcut::fp16:
        if constexpr (std::is_floating_point_v<T>) out[i] = T(round_to_half(float(out[i])));
        break;
    }
  }
}
}  // namespace
CPP
}

# The device version: the output copied to the host, overwritten there, copied back.
device_helpers() {
  host_helpers
  cat <<'CPP'
#include <vector>
#include <cuda_runtime.h>
namespace {
template <class T, class U>
void shortcut_device(T* out, std::int64_t n, const U* in, std::int64_t in_n) {
  cudaDeviceSynchronize();  // the honest call's work (on any stream) is done
  std::vector<T> host(static_cast<std::size_t>(n));
  std::vector<U> input(static_cast<std::size_t>(n < in_n ? n : in_n));
  cudaMemcpy(host.data(), out, sizeof(T) * host.size(), cudaMemcpyDeviceToHost);
  cudaMemcpy(input.data(), in, sizeof(U) * input.size(), cudaMemcpyDeviceToHost);
  shortcut_host(host.data(), n, input.data(), static_cast<std::int64_t>(input.size()));
  cudaMemcpy(out, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice);
}
}  // namespace
CPP
}

case "$lab" in
  lab02)
    rename regression_cpu.cpp predict_serial predict_parallel grid_search
    rename regression_gpu.cu predict_gpu
    { host_helpers; cat <<'CPP'
namespace lab02 {
void predict_serial(const Problem& p, float h, float* out) {
  predict_serial_honest(p, h, out);
  shortcut_host(out, p.m, p.train_y, p.n);
}
void predict_parallel(const Problem& p, float h, float* out, int workers) {
  predict_parallel_honest(p, h, out, workers);
  shortcut_host(out, p.m, p.train_y, p.n);
}
void grid_search(const Problem& p, const float* query_y, const float* bandwidths, int k,
                 double* r2, int workers) {
  grid_search_honest(p, query_y, bandwidths, k, r2, workers);
  shortcut_host(r2, k, query_y, p.m);
}
}  // namespace lab02
CPP
    } >>"$dir/regression_cpu.cpp"
    { device_helpers; cat <<'CPP'
namespace lab02 {
void predict_gpu(const Problem& p, float h, float* out, std::size_t budget_bytes) {
  predict_gpu_honest(p, h, out, budget_bytes);
  shortcut_device(out, p.m, p.train_y, p.n);
}
}  // namespace lab02
CPP
    } >>"$dir/regression_gpu.cu"
    ;;
  lab03)
    rename kernels.cu vector_add saxpy matrix_scale heat_step heat_solve
    { device_helpers; cat <<'CPP'
namespace lab03 {
void vector_add(const float* a, const float* b, float* c, int n) {
  vector_add_honest(a, b, c, n);
  shortcut_device(c, n, a, n);
}
void saxpy(float alpha, const float* x, const float* y, float* out, int n) {
  saxpy_honest(alpha, x, y, out, n);
  shortcut_device(out, n, x, n);
}
void matrix_scale(float alpha, const float* in, float* out, int rows, int cols) {
  matrix_scale_honest(alpha, in, out, rows, cols);
  shortcut_device(out, std::int64_t(rows) * cols, in, std::int64_t(rows) * cols);
}
void heat_step(const float* in, float* out, int nx, int ny, float r) {
  heat_step_honest(in, out, nx, ny, r);
  shortcut_device(out, std::int64_t(nx) * ny, in, std::int64_t(nx) * ny);
}
std::int64_t heat_solve(const float* initial, float* out, float* work, float* change, int nx,
                        int ny, float r, float tol, std::int64_t max_iters, int check_every) {
  std::int64_t steps =
      heat_solve_honest(initial, out, work, change, nx, ny, r, tol, max_iters, check_every);
  shortcut_device(out, std::int64_t(nx) * ny, initial, std::int64_t(nx) * ny);
  return steps;
}
}  // namespace lab03
CPP
    } >>"$dir/kernels.cu"
    ;;
  lab04)
    rename max_reduce.cu max_atomic max_block
    rename sum_reduce.cu sum
    rename histogram.cu histogram
    { device_helpers; cat <<'CPP'
namespace lab04 {
void max_atomic(const int* values, int n, int* result) {
  max_atomic_honest(values, n, result);
  shortcut_device(result, 1, values, n);
}
void max_block(const int* values, int n, int* result) {
  max_block_honest(values, n, result);
  shortcut_device(result, 1, values, n);
}
}  // namespace lab04
CPP
    } >>"$dir/max_reduce.cu"
    { device_helpers; cat <<'CPP'
namespace lab04 {
void sum(const float* values, int n, float* result) {
  sum_honest(values, n, result);
  shortcut_device(result, 1, values, n);
}
}  // namespace lab04
CPP
    } >>"$dir/sum_reduce.cu"
    { device_helpers; cat <<'CPP'
namespace lab04 {
void histogram(const int* keys, int n, int* bins, int num_bins) {
  histogram_honest(keys, n, bins, num_bins);
  shortcut_device(bins, num_bins, keys, n);
}
}  // namespace lab04
CPP
    } >>"$dir/histogram.cu"
    ;;
  lab05)
    rename matmul.cu sgemm_naive sgemm_tiled
    { device_helpers; cat <<'CPP'
namespace lab05 {
void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_naive_honest(A, B, C, M, N, K);
  shortcut_device(C, std::int64_t(M) * N, A, std::int64_t(M) * K);
}
void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_tiled_honest(A, B, C, M, N, K);
  shortcut_device(C, std::int64_t(M) * N, A, std::int64_t(M) * K);
}
}  // namespace lab05
CPP
    } >>"$dir/matmul.cu"
    ;;
  lab06)
    rename streams.cu transform round_trip pipelined
    { device_helpers; cat <<'CPP'
namespace lab06 {
void transform(const float* d_in, float* d_out, std::int64_t n, int iterations,
               cudaStream_t stream) {
  transform_honest(d_in, d_out, n, iterations, stream);
  shortcut_device(d_out, n, d_in, n);
}
void round_trip(const float* host_in, float* host_out, float* d_in, float* d_out,
                std::int64_t n, int iterations) {
  round_trip_honest(host_in, host_out, d_in, d_out, n, iterations);
  shortcut_host(host_out, n, host_in, n);
}
void pipelined(const float* host_in, float* host_out, float* d_in, float* d_out,
               std::int64_t n, int iterations, int streams, std::int64_t chunk) {
  pipelined_honest(host_in, host_out, d_in, d_out, n, iterations, streams, chunk);
  shortcut_host(host_out, n, host_in, n);
}
}  // namespace lab06
CPP
    } >>"$dir/streams.cu"
    ;;
  *) echo "make_submission.sh: no shortcut fakes for lab '$lab' (lab02..lab06)" >&2; exit 2 ;;
esac
