#pragma once
// Kernel launches. parlab-sim-rewrite turns `kernel<<<grid, block, shmem, stream>>>(a, b)`
// into
//     parlab_sim::launch("kernel", [&](auto&&... p) { kernel(p...); },
//                        parlab_sim::launch_config(grid, block, shmem, stream), a, b);
// so template kernels whose arguments deduce their parameters work as in CUDA. Code
// can also call the function-pointer form directly. Like CUDA, a launch never throws:
// a configuration CUDA rejects is recorded for cudaGetLastError and nothing runs.
#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

#include "parlab_sim/errors.hpp"
#include "parlab_sim/streams_events.hpp"
#include "parlab_sim/vector_types.hpp"

namespace parlab_sim {

struct LaunchConfig {
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  cudaStream_t stream = nullptr;
  // The launch site (for the report of a launch from device code, which needs a GPU).
  const char* site_file = nullptr;
  unsigned site_line = 0;
};

// Function arguments, not braces, so an `int` shared-memory size converts as in CUDA.
inline LaunchConfig launch_config(dim3 grid, dim3 block, std::size_t dynamic_shared_bytes = 0,
                                  cudaStream_t stream = nullptr,
                                  std::source_location site = std::source_location::current()) {
  return LaunchConfig{grid, block, dynamic_shared_bytes, stream, site.file_name(),
                      static_cast<unsigned>(site.line())};
}

namespace detail {

struct LaunchRequest {
  const char* kernel_name;
  const void* kernel;  // for per-kernel attributes; null when only a call wrapper is known
  LaunchConfig config;
  void (*run_thread)(const void* state);  // runs one CUDA thread
  const void* state;
};

// The CUDA error a launch with this configuration gets, or cudaSuccess.
cudaError_t check_launch(const LaunchRequest& request);
// Runs every block to completion (or until the launch is aborted, see
// shared_memory.hpp); records a launch error for cudaGetLastError.
void run_launch(const LaunchRequest& request);
// Stops the program with a report when `pointer` is not device-accessible memory
// (cudaMalloc, cudaMallocManaged, cudaMallocHost, registered host memory, symbols):
// on a GPU, dereferencing it would be an illegal address.
void check_pointer_argument(const char* kernel_name, int position, const void* pointer);

template <class T>
void check_argument(const char* kernel_name, int position, const T& value) {
  if constexpr (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>) {
    check_pointer_argument(kernel_name, position,
                           const_cast<const void*>(static_cast<const volatile void*>(value)));
  }
}

template <class Params>
void check_arguments(const char* kernel_name, const Params& params) {
  std::apply(
      [kernel_name](const auto&... value) {
        int position = 0;
        (check_argument(kernel_name, ++position, value), ...);
      },
      params);
}

template <class Call, class Params>
struct LaunchState {
  const Call* call;
  Params params;
  static void run_thread(const void* state) {
    const auto* self = static_cast<const LaunchState*>(state);
    std::apply(*self->call, self->params);
  }
};

// The arguments are copied once, straight into the launch's state (as CUDA copies
// them once on the host); that copy lives until every thread has finished.
template <class Params, class Call, class... Args>
void launch_with_params(const char* kernel_name, const void* kernel, const Call& call,
                        const LaunchConfig& config, Args&&... args) {
  using State = LaunchState<Call, Params>;
  State state{&call, Params(std::forward<Args>(args)...)};
  const LaunchRequest request{kernel_name, kernel, config, &State::run_thread, &state};
  if (const cudaError_t error = check_launch(request); error != cudaSuccess) {
    record_error(error);
    return;
  }
  check_arguments(kernel_name, state.params);
  run_launch(request);
}

}  // namespace detail

// The rewriter's form: `call` is invoked once per CUDA thread with the argument values
// (evaluated once, on the host, like CUDA's).
template <class Call, class... Args>
void launch(const char* kernel_name, Call&& call, const LaunchConfig& config, Args&&... args) {
  detail::launch_with_params<std::tuple<std::decay_t<Args>...>>(kernel_name, nullptr, call, config,
                                                                std::forward<Args>(args)...);
}

// The direct form: arguments convert to the kernel's parameter types at launch.
template <class... KernelParams, class... Args>
void launch(const char* kernel_name, void (*kernel)(KernelParams...), dim3 grid, dim3 block,
            std::size_t dynamic_shared_bytes, cudaStream_t stream, Args&&... args) {
  static_assert(sizeof...(KernelParams) == sizeof...(Args),
                "a kernel launch needs one argument per kernel parameter");
  detail::launch_with_params<std::tuple<std::decay_t<KernelParams>...>>(
      kernel_name, reinterpret_cast<const void*>(kernel), kernel,
      LaunchConfig{grid, block, dynamic_shared_bytes, stream}, std::forward<Args>(args)...);
}

}  // namespace parlab_sim
