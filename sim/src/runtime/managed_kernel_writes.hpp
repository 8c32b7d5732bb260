#pragma once
// A kernel's writes to managed memory reach the host only at a synchronization
// (docs/simulation-design.md, "Streams and events"). On a GPU a launch returns before its kernel
// runs: host code that reads cudaMallocManaged memory right after it, with no
// cudaDeviceSynchronize, sees the bytes from before the kernel. The simulator runs the
// kernel during the launch, so at its end it puts back, on the host side, the bytes the
// kernel changed in managed memory, and queues what the kernel wrote as pending work of the
// launch's stream (copies/deferred_copies.hpp): it lands at the synchronization that
// orders the stream, or before any later device work (a launch, a copy or memset touching
// those bytes). A host access before then faults on the watched pages and becomes the
// finding `unsynchronized_host_access` naming the line and the kernel.
#include "parlab_sim/launch.hpp"

namespace parlab_sim::detail {

// At the end of a launch (needs the race check's record of the launch's writes; without
// the race check the kernel's writes stay as they are).
void defer_managed_writes_of_launch(const LaunchRequest& request);

}  // namespace parlab_sim::detail
