#pragma once
// The block runner of the current worker thread (null on host threads); the lane it
// runs now is lane/lane.hpp's t_lane.
#include "exec/block_runner.hpp"

namespace parlab_sim::detail {

extern thread_local constinit BlockRunner* t_block_runner;

}  // namespace parlab_sim::detail
