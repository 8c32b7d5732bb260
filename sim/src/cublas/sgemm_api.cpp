// cublasSgemm in sim mode: cuBLAS's argument checks and status codes, a check that
// each matrix lies inside device memory (on a GPU, a host pointer or a too-small
// buffer is an illegal address inside cuBLAS's kernel), then the CPU SGEMM.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "config/runtime_settings.hpp"
#include "cublas/cpu_sgemm.hpp"
#include "cublas/cublas_context.hpp"
#include "cublas_api.h"
#include "exec/worker_pool.hpp"
#include "fault/fatal_report.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "copies/deferred_copies.hpp"
#include "memory/device_pages.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

bool valid_op(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

// The elements a column-major rows x cols matrix with leading dimension ld touches
// must all lie in one live device allocation; otherwise stop like a kernel fault.
void check_matrix(const char* name, const float* base, int rows, int cols, int ld) {
  if (rows == 0 || cols == 0) return;
  if (runtime_settings().allow_host_pointers) return;
  const auto first = reinterpret_cast<std::uintptr_t>(base);
  const std::uint64_t last_index =
      static_cast<std::uint64_t>(rows - 1) + static_cast<std::uint64_t>(cols - 1) * ld;
  const std::uintptr_t last = first + last_index * sizeof(float) + sizeof(float) - 1;
  MemoryRange range;
  const bool known = base != nullptr && MemoryRegistry::instance().find(first, range);
  if (known && range.kind != MemoryKind::freed && first >= range.begin && last < range.end) {
    return;
  }
  ReportText text;
  text.add("parlab-sim: cublasSgemm: matrix ").add(name).add(" at ").add_hex(first);
  text.add(" (").add_decimal(static_cast<std::uint64_t>(rows)).add(" x ");
  text.add_decimal(static_cast<std::uint64_t>(cols)).add(" column-major, leading dimension ");
  text.add_decimal(static_cast<std::uint64_t>(ld)).add(")\n  ");
  if (!known) {
    text.add("is not device memory: cuBLAS takes device pointers (cudaMalloc), not host "
             "arrays.");
  } else if (range.kind == MemoryKind::freed) {
    text.add("points into device memory already released by cudaFree (use after free).");
  } else {
    text.add("does not fit in its device allocation of ");
    text.add_bytes(range.end - range.begin);
    text.add(": check m, n, k, the leading dimensions and the transposes.");
  }
  text.add("\n  (a GPU reports this as cudaErrorIllegalAddress: an illegal memory access was "
           "encountered)\n");
  finish_report(text, kExitMemoryFault);
}

unsigned sgemm_threads() {
  static const unsigned threads = std::max(1u, WorkerPool::configured_worker_count());
  return threads;
}

}  // namespace
}  // namespace parlab_sim::detail

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const float* alpha, const float* A, int lda, const float* B,
                              int ldb, const float* beta, float* C, int ldc) {
  using namespace parlab_sim::detail;
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(transa) || !valid_op(transb) || m < 0 || n < 0 || k < 0) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  const bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
  // BLAS's rules: the leading dimension is at least the stored matrix's row count.
  if (lda < std::max(1, ta ? k : m) || ldb < std::max(1, tb ? n : k) || ldc < std::max(1, m)) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (alpha == nullptr || beta == nullptr) return CUBLAS_STATUS_INVALID_VALUE;

  SgemmArgs args;
  args.transpose_a = ta;
  args.transpose_b = tb;
  args.m = m;
  args.n = n;
  args.k = k;
  // Device work: pending copies to the device land first, as before a launch
  // (alpha and beta may be among their bytes, in device pointer mode).
  parlab_sim::detail::land_copies_to_device();
  const DeviceMemoryOpen open;  // the matrices, and alpha and beta in device pointer mode
  args.alpha = *alpha;  // host or device pointer mode: both readable here
  args.beta = *beta;
  args.a = A;
  args.lda = lda;
  args.b = B;
  args.ldb = ldb;
  args.c = C;
  args.ldc = ldc;
  if (k > 0 && args.alpha != 0.0f) {
    check_matrix("A", A, ta ? k : m, ta ? m : k, lda);
    check_matrix("B", B, tb ? n : k, tb ? k : n, ldb);
  }
  check_matrix("C", C, m, n, ldc);
  cpu_sgemm(args, sgemm_threads());
  return CUBLAS_STATUS_SUCCESS;
}
