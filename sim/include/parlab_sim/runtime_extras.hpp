#pragma once
// Runtime calls real CUDA code uses beyond the basics: pitched 2D memory,
// the occupancy calculator, cudaLaunchKernel, the shared-memory carve-out, and the
// include guards other headers (helper_cuda.h) test to know the runtime is there.
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "parlab_sim/device.hpp"
#include "parlab_sim/launch.hpp"
#include "parlab_sim/memory.hpp"

// cuda_runtime.h's own guards and version, tested by helper_cuda.h and the samples.
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif

enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0,
};

// Rows of `width` bytes, `height` of them; each pitch at least the width. The device
// side of every row is checked like cudaMemcpy's.
cudaError_t cudaMemcpy2D(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dst_pitch, const void* src,
                              std::size_t src_pitch, std::size_t width, std::size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset2D(void* device_pointer, std::size_t pitch, int value, std::size_t width,
                         std::size_t height);
// The pitch is the width rounded up to 256 bytes (a GPU's alignment; any pitch is legal).
cudaError_t cudaMallocPitch(void** device_pointer, std::size_t* pitch, std::size_t width,
                            std::size_t height);
template <class T>
cudaError_t cudaMallocPitch(T** device_pointer, std::size_t* pitch, std::size_t width,
                            std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(device_pointer), pitch, width, height);
}

namespace parlab_sim::detail {
// The simulated device's answers: 2048 threads and 32 blocks per multiprocessor,
// shared memory per multiprocessor = the opt-in limit.
cudaError_t max_potential_block_size(int* min_grid_size, int* block_size,
                                     std::size_t dynamic_shared_bytes, int block_size_limit);
cudaError_t max_active_blocks(int* blocks, int block_size, std::size_t dynamic_shared_bytes);

template <class... Params, std::size_t... I>
void launch_from_argument_array(const char* name, void (*kernel)(Params...), dim3 grid,
                                dim3 block, void** args, std::size_t shared, cudaStream_t stream,
                                std::index_sequence<I...>) {
  ::parlab_sim::launch(name, kernel, grid, block, shared, stream,
                       *static_cast<std::remove_cvref_t<Params>*>(args[I])...);
}
template <class T>
inline constexpr bool always_false = false;
}  // namespace parlab_sim::detail

template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, Kernel,
                                               std::size_t dynamic_shared_bytes = 0,
                                               int block_size_limit = 0) {
  return parlab_sim::detail::max_potential_block_size(min_grid_size, block_size,
                                                      dynamic_shared_bytes, block_size_limit);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel, int block_size,
                                                          std::size_t dynamic_shared_bytes) {
  return parlab_sim::detail::max_active_blocks(blocks, block_size, dynamic_shared_bytes);
}

// cudaLaunchKernel(kernel, grid, block, args, shared, stream): args[i] points to the
// i-th argument. The kernel must be named itself (its type gives the arguments' types);
// a `(void*)kernel` cast loses them and is refused at compile time.
template <class... Params>
cudaError_t parlab_sim_launch_kernel(const char* name, void (*kernel)(Params...), dim3 grid,
                                     dim3 block, void** args, std::size_t shared = 0,
                                     cudaStream_t stream = nullptr) {
  parlab_sim::detail::launch_from_argument_array(name, kernel, grid, block, args, shared, stream,
                                                 std::index_sequence_for<Params...>{});
  return cudaPeekAtLastError();
}
template <class T = void>
cudaError_t parlab_sim_launch_kernel(const char*, const void*, dim3, dim3, void**,
                                     std::size_t = 0, cudaStream_t = nullptr) {
  static_assert(parlab_sim::detail::always_false<T>,
                "parlab sim: cudaLaunchKernel needs the kernel itself, not a (void*) cast: "
                "write cudaLaunchKernel(my_kernel, grid, block, args, shared, stream)");
  return cudaErrorNotSupported;
}
#define cudaLaunchKernel(kernel, ...) parlab_sim_launch_kernel(#kernel, kernel, __VA_ARGS__)
// A cooperative launch runs like a plain one; this_grid().sync() works when every block
// can run at once (no more blocks than the multiprocessor count the simulator reports)
// and is refused with a report otherwise.
#define cudaLaunchCooperativeKernel(kernel, ...) parlab_sim_launch_kernel(#kernel, kernel, __VA_ARGS__)
