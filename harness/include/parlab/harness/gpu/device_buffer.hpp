#pragma once
// A typed device allocation owned by the driver: upload, download, and poison (every
// byte 0xFF, a NaN for floats and -1 for integers) so that elements the student's
// kernel never writes fail the comparison instead of passing by luck.
#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <vector>

#include "parlab/harness/gpu/cuda_check.hpp"

namespace parlab::harness::gpu {

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    // cudaMalloc(0) may return nullptr; keep one element so pointers stay valid.
    PARLAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes_for(count)));
  }
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() { return data_; }
  const T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(std::span<const T> host) {
    if (host.size() != count_) throw CudaError("DeviceBuffer::upload: size mismatch");
    PARLAB_CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    PARLAB_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  void poison() { PARLAB_CUDA_CHECK(cudaMemset(data_, 0xFF, bytes_for(count_))); }
  void zero() { PARLAB_CUDA_CHECK(cudaMemset(data_, 0, bytes_for(count_))); }

 private:
  static std::size_t bytes_for(std::size_t count) { return (count ? count : 1) * sizeof(T); }
  T* data_ = nullptr;
  std::size_t count_;
};

}  // namespace parlab::harness::gpu
