#pragma once
// Checked CUDA calls for lab drivers (host code; compiles against the real CUDA
// runtime or the simulation backend's). A failed call throws CudaError naming the
// call, the error (cudaGetErrorName + cudaGetErrorString) and where it happened; the
// driver turns it into the task's status message, so the student sees exactly that.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace parlab::harness::gpu {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline std::string describe(cudaError_t error) {
  return std::string(cudaGetErrorName(error)) + " (" + cudaGetErrorString(error) + ")";
}

inline void check(cudaError_t error, const char* call, const char* file, int line) {
  if (error == cudaSuccess) return;
  throw CudaError("CUDA error " + describe(error) + " in " + call + " at " + file + ":" +
                  std::to_string(line));
}

// After a student's function returns: a launch error (bad configuration) shows up in
// cudaGetLastError, a fault inside a kernel at the next synchronization. Both are
// reported as the student's, naming their function.
inline void check_student_call(const char* function) {
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    throw CudaError("CUDA error " + describe(launch) + " after " + function +
                    " returned: a kernel launch failed (check the grid and block sizes and "
                    "the shared memory you ask for)");
  }
  cudaError_t run = cudaDeviceSynchronize();
  if (run != cudaSuccess) {
    throw CudaError("CUDA error " + describe(run) + " while the kernels of " + function +
                    " ran (an out-of-bounds access is the usual cause: check your bounds "
                    "test, e.g. if (i < n))");
  }
}

}  // namespace parlab::harness::gpu

// Checks a CUDA runtime call: PARLAB_CUDA_CHECK(cudaMalloc(&p, bytes));
#define PARLAB_CUDA_CHECK(call) ::parlab::harness::gpu::check((call), #call, __FILE__, __LINE__)
