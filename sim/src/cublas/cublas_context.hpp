#pragma once
// What a cublasHandle_t points to in sim mode.
#include "cublas_api.h"

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
};
