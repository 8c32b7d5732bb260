// Reference-only task "sgemm_cublas": NVIDIA's cuBLAS SGEMM on the same row-major data,
// the "how far from the best" yardstick of the performance report. (In sim mode,
// cublasSgemm is the simulator's multi-threaded CPU SGEMM.)
//
// cuBLAS is column-major. A row-major M x N matrix, read as column-major, is its
// transpose (N x M). So instead of C = A B we ask cuBLAS for C^T = B^T A^T: pass B
// first, then A, with m = N and n = M; no transposes, no copies.
#include <cublas_v2.h>

#include <memory>
#include <string>

#include "gemm_gpu_task.hpp"

namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw parlab::harness::gpu::CudaError(std::string("cuBLAS error ") +
                                        cublasGetStatusName(status) + " (" +
                                        cublasGetStatusString(status) + ") in " + call);
}

struct HandleDeleter {
  void operator()(cublasContext* h) const { cublasDestroy(h); }
};
using Handle = std::unique_ptr<cublasContext, HandleDeleter>;

void run(parlab::harness::TaskContext& ctx) {
  cublasHandle_t raw = nullptr;
  check_cublas(cublasCreate(&raw), "cublasCreate");  // before timing: it is slow
  Handle handle(raw);
  lab05::run_gpu_gemm(ctx, "cublasSgemm",
                      [&](const float* A, const float* B, float* C, int M, int N, int K) {
                        const float one = 1.0f, zero = 0.0f;
                        check_cublas(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K,
                                                 &one, B, N, A, K, &zero, C, N),
                                     "cublasSgemm");
                      });
}

const bool registered = parlab::harness::register_extra_task(
    {"sgemm_cublas", "reference only: cuBLAS SGEMM (row-major via C^T = B^T A^T)", run});

}  // namespace
