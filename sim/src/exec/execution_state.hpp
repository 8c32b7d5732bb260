#pragma once
// What runs on the current OS thread: the block runner of a worker thread and the CUDA
// thread (lane) whose fiber is running. Both are null on host threads and between
// lanes; the fault handler reads them to name the kernel, block and thread.
#include "exec/block_runner.hpp"

namespace parlab_sim::detail {

extern thread_local constinit BlockRunner* t_block_runner;
extern thread_local constinit Lane* t_lane;

}  // namespace parlab_sim::detail
