#include "device/launch_limits.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "parlab_sim/device.hpp"

namespace parlab_sim::detail {
namespace {

struct OptinTable {
  std::mutex mutex;
  std::unordered_map<const void*, std::size_t> dynamic_limit;
  std::size_t largest = 0;
};

OptinTable& optins() {
  static OptinTable* table = new OptinTable;  // never destroyed: used until exit
  return *table;
}

}  // namespace

cudaError_t check_dimensions(dim3 grid, dim3 block) {
  const unsigned block_dims[3] = {block.x, block.y, block.z};
  const unsigned grid_dims[3] = {grid.x, grid.y, grid.z};
  for (int i = 0; i < 3; ++i) {
    if (block_dims[i] == 0 || block_dims[i] > kMaxBlockDim[i]) return cudaErrorInvalidConfiguration;
    if (grid_dims[i] == 0 || grid_dims[i] > kMaxGridDim[i]) return cudaErrorInvalidConfiguration;
  }
  const unsigned long long threads =
      static_cast<unsigned long long>(block.x) * block.y * block.z;
  if (threads > kMaxThreadsPerBlock) return cudaErrorInvalidConfiguration;
  return cudaSuccess;
}

std::size_t dynamic_shared_limit(const void* kernel) {
  OptinTable& table = optins();
  std::lock_guard lock(table.mutex);
  if (kernel == nullptr) return std::max(kSharedMemoryPerBlockBytes, table.largest);
  const auto found = table.dynamic_limit.find(kernel);
  return found == table.dynamic_limit.end() ? kSharedMemoryPerBlockBytes : found->second;
}

std::size_t total_shared_limit(const void* kernel) {
  return dynamic_shared_limit(kernel) > kSharedMemoryPerBlockBytes ? kSharedMemoryOptinBytes
                                                                   : kSharedMemoryPerBlockBytes;
}

cudaError_t set_function_attribute(const void* kernel, cudaFuncAttribute attribute, int value) {
  if (kernel == nullptr) return record_error(cudaErrorInvalidDeviceFunction);
  switch (attribute) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: {
      if (value < 0 || static_cast<std::size_t>(value) > kSharedMemoryOptinBytes) {
        return record_error(cudaErrorInvalidValue);
      }
      OptinTable& table = optins();
      std::lock_guard lock(table.mutex);
      table.dynamic_limit[kernel] = static_cast<std::size_t>(value);
      table.largest = std::max(table.largest, static_cast<std::size_t>(value));
      return cudaSuccess;
    }
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      return (value < -1 || value > 100) ? record_error(cudaErrorInvalidValue) : cudaSuccess;
  }
  return record_error(cudaErrorInvalidValue);
}

}  // namespace parlab_sim::detail
