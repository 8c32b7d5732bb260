// parlab test fake, in the shape of NVIDIA cuda-samples' Common/helper_cuda.h (this
// project's own code, not NVIDIA's): its parts are compiled only when the CUDA runtime
// headers' include guards are defined, as the real header's are, and they use the
// same runtime calls and enumerators (cudaDevAttrComputeMode, cudaComputeModeProhibited,
// cudaDevAttrIntegrated, the SM version, the multiprocessor count and the clock). Graded
// where nvcc compares the lines each compiles, and without nvcc too (e2e sim_without_nvcc).
#ifndef PARLAB_FAKE_HELPER_CUDA_H_
#define PARLAB_FAKE_HELPER_CUDA_H_

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_string.h"

#ifdef __DRIVER_TYPES_H__
static const char* _cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }

template <typename T>
void check(T result, const char* const call, const char* const file, const int line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line,
            static_cast<int>(result), _cudaGetErrorEnum(result), call);
    exit(EXIT_FAILURE);
  }
}

#define checkCudaErrors(value) check((value), #value, __FILE__, __LINE__)
#define getLastCudaError(message) __getLastCudaError(message, __FILE__, __LINE__)

inline void __getLastCudaError(const char* message, const char* file, const int line) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) {
    fprintf(stderr, "%s(%d): getLastCudaError(): %s: (%d) %s\n", file, line, message,
            static_cast<int>(error), cudaGetErrorString(error));
    exit(EXIT_FAILURE);
  }
}
#endif  // __DRIVER_TYPES_H__

// The real header's error names for the other CUDA libraries, compiled only where their
// headers were included (none here: undefined for nvcc and the simulator alike).
#ifdef CUBLAS_API_H_
static const char* _cudaGetErrorEnum(cublasStatus_t error) {
  return error == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "<cuBLAS error>";
}
#endif
#ifdef _CUFFT_H_
static const char* _cudaGetErrorEnum(cufftResult error) { return error == CUFFT_SUCCESS ? "CUFFT_SUCCESS" : "<cuFFT error>"; }
#endif
#ifdef CURAND_H_
static const char* _cudaGetErrorEnum(curandStatus_t error) {
  return error == CURAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS" : "<cuRAND error>";
}
#endif

#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif

// Cores per multiprocessor by SM version (an estimate for ranking devices).
inline int coresPerMultiprocessor(int major, int minor) {
  const int version = (major << 4) + minor;
  if (version >= 0x86) return 128;
  if (version >= 0x70) return 64;
  return 128;
}

#ifdef __CUDA_RUNTIME_H__
inline int gpuDeviceInit(int device) {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  if (count == 0 || device < 0 || device >= count) return -1;
  int mode = -1, major = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
  checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (mode == cudaComputeModeProhibited || major < 1) return -1;
  checkCudaErrors(cudaSetDevice(device));
  return device;
}

// The device with the most multiprocessors x cores x clock, skipping prohibited ones.
inline int gpuGetMaxGflopsDeviceId() {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  int best = 0;
  uint64_t best_performance = 0;
  int prohibited = 0;
  for (int device = 0; device < count; ++device) {
    int mode = -1, major = 0, minor = 0, multiprocessors = 0, clock = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
    if (mode == cudaComputeModeProhibited) {
      ++prohibited;
      continue;
    }
    checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    checkCudaErrors(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, device) != cudaSuccess) clock = 1;
    const uint64_t performance =
        static_cast<uint64_t>(multiprocessors) * coresPerMultiprocessor(major, minor) * clock;
    if (performance > best_performance) {
      best_performance = performance;
      best = device;
    }
  }
  if (count == 0 || prohibited == count) {
    fprintf(stderr, "gpuGetMaxGflopsDeviceId(): no usable CUDA device\n");
    exit(EXIT_FAILURE);
  }
  return best;
}

inline int findCudaDevice(int argc, const char** argv) {
  if (checkCmdLineFlag(argc, argv, "device")) {
    return gpuDeviceInit(getCmdLineArgumentInt(argc, argv, "device="));
  }
  const int device = gpuGetMaxGflopsDeviceId();
  checkCudaErrors(cudaSetDevice(device));
  return device;
}

// The first integrated device not in prohibited mode, or -1.
inline int findIntegratedGPU() {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  for (int device = 0; device < count; ++device) {
    int mode = -1, integrated = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
    checkCudaErrors(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, device));
    if (integrated && mode != cudaComputeModeProhibited) return device;
  }
  return -1;
}

inline bool checkCudaCapabilities(int major_version, int minor_version) {
  int device = 0, major = 0, minor = 0;
  checkCudaErrors(cudaGetDevice(&device));
  checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major > major_version || (major == major_version && minor >= minor_version);
}
#endif  // __CUDA_RUNTIME_H__

#endif  // PARLAB_FAKE_HELPER_CUDA_H_
