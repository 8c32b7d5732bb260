// Launch configurations CUDA rejects get CUDA's error codes through cudaGetLastError,
// and nothing runs.
#include <catch2/catch.hpp>
#include <cstring>

#include "sim_test_support.hpp"

using sim_test::DeviceArray;

namespace {

__global__ void mark(int* flag) { *flag = 1; }

cudaError_t launch_mark(dim3 grid, dim3 block, std::size_t shared, cudaStream_t stream, int* flag) {
  parlab_sim::launch("mark", mark, grid, block, shared, stream, flag);
  return cudaGetLastError();
}

}  // namespace

TEST_CASE("invalid launch configurations return CUDA's error codes", "[sim][launch-errors]") {
  DeviceArray<int> flag(1, 0);
  cudaGetLastError();
  CHECK(launch_mark(dim3(1), dim3(1025), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(1), dim3(32, 32, 2), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(1), dim3(1, 1, 65), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(1), dim3(2048, 1, 1), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(0), dim3(32), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(4, 0), dim3(32), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(1), dim3(32, 1, 0), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(1, 65536), dim3(1), 0, nullptr, flag.get()) == cudaErrorInvalidConfiguration);
  CHECK(launch_mark(dim3(1), dim3(32), 64 * 1024, nullptr, flag.get()) == cudaErrorInvalidValue);
  CHECK(launch_mark(dim3(1), dim3(32), 0, reinterpret_cast<cudaStream_t>(0x1234), flag.get()) ==
        cudaErrorInvalidResourceHandle);
  CHECK(flag.to_host()[0] == 0);

  CHECK(launch_mark(dim3(1), dim3(1024), 48 * 1024, nullptr, flag.get()) == cudaSuccess);
  CHECK(launch_mark(dim3(1), dim3(1, 1, 64), 0, cudaStreamPerThread, flag.get()) == cudaSuccess);
  CHECK(flag.to_host()[0] == 1);
}

TEST_CASE("cudaGetLastError clears the error, cudaPeekAtLastError keeps it", "[sim][launch-errors]") {
  DeviceArray<int> flag(1, 0);
  cudaGetLastError();
  parlab_sim::launch("mark", mark, dim3(1), dim3(1025), 0, nullptr, flag.get());
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // like CUDA: a launch error is not sticky
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("error names and strings are CUDA's", "[sim][launch-errors]") {
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered") == 0);
  CHECK(std::strcmp(cudaGetErrorName(static_cast<cudaError_t>(12345)), "cudaErrorUnknown") == 0);
}
