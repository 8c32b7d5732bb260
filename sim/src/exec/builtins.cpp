// The per-OS-thread variables behind threadIdx & co. and the execution state.
#include "exec/execution_state.hpp"
#include "parlab_sim/builtins.hpp"
#include "parlab_sim/shared_memory.hpp"

thread_local constinit uint3 threadIdx{0, 0, 0};
thread_local constinit uint3 blockIdx{0, 0, 0};
thread_local constinit dim3 blockDim{1, 1, 1};
thread_local constinit dim3 gridDim{1, 1, 1};

namespace parlab_sim::detail {

thread_local constinit BlockRunner* t_block_runner = nullptr;
thread_local constinit Lane* t_lane = nullptr;
thread_local constinit RunningBlock t_running_block;
thread_local constinit std::byte* t_dynamic_shared = nullptr;
thread_local constinit const char* t_dynamic_shared_name = nullptr;
thread_local constinit std::uint64_t t_block_serial = 0;

}  // namespace parlab_sim::detail
