#pragma once
// Host side of the reference's extra tasks (variants.cu): the same loading, transfers,
// poisoning, CUDA-event timing and outputs as the lab's driver.cpp, for a kernel the
// driver's task table does not name. Used as "reference:TASK" performance baselines
// and for roofline measurements of the bandwidth-bound versions.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "parlab/harness/driver.hpp"
#include "parlab/harness/gpu/device_buffer.hpp"
#include "parlab/harness/gpu/gpu_timing.hpp"

namespace lab04::variants {

using parlab::harness::TaskContext;
using parlab::harness::gpu::DeviceBuffer;

struct Shape {
  int n = 0;
  int bins = 0;
};

inline Shape read_shape(const TaskContext& ctx) {
  const auto s = parlab::harness::read_array<std::int64_t>(ctx.dataset_dir(), "shape");
  if (s.size() != 2 || s[0] < 1 || s[0] > (std::int64_t{1} << 28) || s[1] < 1 || s[1] > 8192) {
    throw std::runtime_error("dataset: 'shape' must be [n, bins] (reduction_data)");
  }
  return {static_cast<int>(s[0]), static_cast<int>(s[1])};
}

// Loads input array `name` (n elements) into d, timed as the phase "host_to_device".
template <class T>
void upload(TaskContext& ctx, const std::string& name, DeviceBuffer<T>& d) {
  const std::vector<T> host = parlab::harness::read_array<T>(ctx.dataset_dir(), name);
  if (host.size() != d.size()) {
    throw std::runtime_error("dataset: '" + name + "' does not have n elements");
  }
  parlab::harness::gpu::timed_phase(ctx, "host_to_device",
                                    [&] { d.upload(std::span<const T>(host)); });
}

// A reduction of n elements of type In into one Out (max of ints, sum of floats).
template <class In, class Out>
void run_reduction(TaskContext& ctx, const char* name, const char* input, const char* output,
                   void (*fn)(const In*, int, Out*)) {
  const Shape shape = read_shape(ctx);
  DeviceBuffer<In> values(static_cast<std::size_t>(shape.n));
  upload(ctx, input, values);
  DeviceBuffer<Out> result(1);
  parlab::harness::gpu::gpu_timed(
      ctx, name, [&] { result.poison(); }, [&] { fn(values.get(), shape.n, result.get()); });
  std::vector<Out> got;
  parlab::harness::gpu::timed_phase(ctx, "device_to_host", [&] { got = result.download(); });
  ctx.set_work(4.0 * shape.n, static_cast<double>(shape.n));
  ctx.out().write(output, std::span<const Out>(got));
}

inline void run_histogram(TaskContext& ctx, const char* name,
                          void (*fn)(const int*, int, int*, int)) {
  const Shape shape = read_shape(ctx);
  DeviceBuffer<int> keys(static_cast<std::size_t>(shape.n));
  upload(ctx, "keys", keys);
  DeviceBuffer<int> bins(static_cast<std::size_t>(shape.bins));
  parlab::harness::gpu::gpu_timed(
      ctx, name, [&] { bins.poison(); },
      [&] { fn(keys.get(), shape.n, bins.get(), shape.bins); });
  std::vector<int> got;
  parlab::harness::gpu::timed_phase(ctx, "device_to_host", [&] { got = bins.download(); });
  ctx.set_work(4.0 * shape.n + 8.0 * shape.bins, 0);
  ctx.out().write("histogram", std::span<const std::int32_t>(got));
}

}  // namespace lab04::variants
