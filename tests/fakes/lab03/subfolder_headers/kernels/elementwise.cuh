#pragma once
// The element-wise kernels (included inside lab03's anonymous namespace).
__global__ void vector_add_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];  // the last block has threads past the end
}
__global__ void saxpy_kernel(float alpha, const float* __restrict__ x,
                             const float* __restrict__ y, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * x[i] + y[i];
}
__global__ void matrix_scale_kernel(float alpha, const float* __restrict__ in,
                                    float* __restrict__ out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // x along a row: coalesced
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    const int i = row * cols + col;
    out[i] = alpha * in[i];
  }
}
