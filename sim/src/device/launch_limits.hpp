#pragma once
// The limits of the simulated device that a launch is checked against, and the
// per-kernel dynamic shared memory opt-in (cudaFuncSetAttribute).
#include <cstddef>

#include "parlab_sim/errors.hpp"
#include "parlab_sim/vector_types.hpp"

namespace parlab_sim::detail {

inline constexpr unsigned kMaxThreadsPerBlock = 1024;
inline constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 64};
inline constexpr unsigned kMaxGridDim[3] = {2147483647u, 65535, 65535};
inline constexpr std::size_t kSharedMemoryPerBlockBytes = 48 * 1024;
// As an A100: 163 KiB per block after cudaFuncSetAttribute opt-in.
inline constexpr std::size_t kSharedMemoryOptinBytes = 163 * 1024;

// cudaErrorInvalidConfiguration for a zero or oversized dimension or more than 1024
// threads per block; cudaSuccess otherwise.
cudaError_t check_dimensions(dim3 grid, dim3 block);

// Dynamic shared memory a launch of `kernel` may request (48 KiB unless raised with
// cudaFuncSetAttribute). `kernel` is null for rewritten launches, which only know a
// call wrapper: they get the largest opt-in made for any kernel.
std::size_t dynamic_shared_limit(const void* kernel);
// Static + dynamic bytes a block of `kernel` may use.
std::size_t total_shared_limit(const void* kernel);

}  // namespace parlab_sim::detail
