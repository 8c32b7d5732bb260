#include "parlab_sim/runtime_extras.hpp"

#include <algorithm>
#include <cstring>

#include "parlab_sim/errors.hpp"
#include "memory/device_pages.hpp"

namespace parlab_sim::detail {
namespace {

constexpr std::size_t kSharedPerMultiprocessor = 164 * 1024;

int multiprocessors() {
  int count = 1;
  cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, 0);
  return count;
}

}  // namespace

// A simulated multiprocessor (one worker thread) runs one block at a time, so one block
// of any size is resident per multiprocessor. The answer matters for correctness, not
// speed: the CUDA programming guide sizes a cooperative launch as this times
// multiProcessorCount, and this_grid().sync() works with exactly that many blocks here
// (every block resident). A GPU's figure (2048 threads / block size) would ask for more
// blocks than the simulator can keep running at once.
cudaError_t max_active_blocks(int* blocks, int block_size, std::size_t dynamic_shared_bytes) {
  if (blocks == nullptr || block_size <= 0 || block_size > 1024) return record_error(cudaErrorInvalidValue);
  *blocks = dynamic_shared_bytes > kSharedPerMultiprocessor ? 0 : 1;
  return cudaSuccess;
}

cudaError_t max_potential_block_size(int* min_grid_size, int* block_size,
                                     std::size_t dynamic_shared_bytes, int block_size_limit) {
  if (min_grid_size == nullptr || block_size == nullptr) return record_error(cudaErrorInvalidValue);
  int size = 1024;
  if (block_size_limit > 0) size = std::min(size, block_size_limit);
  if (size >= 32) size -= size % 32;
  int per_multiprocessor = 0;
  max_active_blocks(&per_multiprocessor, size, dynamic_shared_bytes);
  *block_size = size;
  *min_grid_size = std::max(1, per_multiprocessor) * multiprocessors();
  return cudaSuccess;
}

}  // namespace parlab_sim::detail

cudaError_t cudaMemcpy2D(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  if (width > dst_pitch || width > src_pitch) {
    return parlab_sim::detail::record_error(cudaErrorInvalidPitchValue);
  }
  const parlab_sim::detail::DeviceMemoryOpen open(dst, src);  // once, not once per row
  for (std::size_t row = 0; row < height; ++row) {
    const cudaError_t error = cudaMemcpy(static_cast<char*>(dst) + row * dst_pitch,
                                         static_cast<const char*>(src) + row * src_pitch, width, kind);
    if (error != cudaSuccess) return error;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dst_pitch, const void* src,
                              std::size_t src_pitch, std::size_t width, std::size_t height,
                              cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dst_pitch, src, src_pitch, width, height, kind);
}

cudaError_t cudaMemset2D(void* device_pointer, std::size_t pitch, int value, std::size_t width,
                         std::size_t height) {
  if (width > pitch) return parlab_sim::detail::record_error(cudaErrorInvalidPitchValue);
  const parlab_sim::detail::DeviceMemoryOpen open(device_pointer);  // once, not once per row
  for (std::size_t row = 0; row < height; ++row) {
    const cudaError_t error = cudaMemset(static_cast<char*>(device_pointer) + row * pitch, value, width);
    if (error != cudaSuccess) return error;
  }
  return cudaSuccess;
}

cudaError_t cudaMallocPitch(void** device_pointer, std::size_t* pitch, std::size_t width,
                            std::size_t height) {
  if (pitch == nullptr) return parlab_sim::detail::record_error(cudaErrorInvalidValue);
  *pitch = (width + 255) / 256 * 256;
  return cudaMalloc(device_pointer, *pitch * height);
}
