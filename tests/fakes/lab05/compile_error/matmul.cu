// Fake lab05 submission that does not compile: `idx` is never declared (line 8).
#include "api.hpp"

__global__ void broken(const float* A, float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    C[i] = A[i];
    C[idx] = 0;
  }
}

namespace lab05 {
void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  broken<<<1, 1>>>(A, C, M * N);
}
void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  broken<<<1, 1>>>(A, C, M * N);
}
}  // namespace lab05
