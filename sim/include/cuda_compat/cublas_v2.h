#pragma once
// parlab sim mode: cuBLAS's v2 API (the declarations are in cublas_api.h). As in CUDA,
// the plain names are macros for the _v2 functions.
#include "cublas_api.h"

// cuBLAS's include guards, which public code tests to learn what is included
// (helper_cuda.h: #ifdef CUBLAS_API_H_).
#define CUBLAS_V2_H_

#define CUBLAS_VER_MAJOR 12
#define CUBLAS_VER_MINOR 0

#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetStream cublasSetStream_v2
#define cublasGetStream cublasGetStream_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasGetPointerMode cublasGetPointerMode_v2
#define cublasSgemm cublasSgemm_v2
