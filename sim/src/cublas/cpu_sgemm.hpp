#pragma once
// The CPU SGEMM behind cublasSgemm in sim mode: C = alpha op(A) op(B) + beta C, all
// column-major as in BLAS. Arguments are already validated by the caller.
namespace parlab_sim::detail {

struct SgemmArgs {
  bool transpose_a = false;  // op(A) = A^T (CUBLAS_OP_T or _C: real matrices)
  bool transpose_b = false;
  int m = 0, n = 0, k = 0;
  float alpha = 1, beta = 0;
  const float* a = nullptr;
  int lda = 1;
  const float* b = nullptr;
  int ldb = 1;
  float* c = nullptr;
  int ldc = 1;
};

// Multi-threaded (`threads` >= 1). With beta == 0, C is only written, never read.
void cpu_sgemm(const SgemmArgs& args, unsigned threads);

}  // namespace parlab_sim::detail
