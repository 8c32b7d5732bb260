#pragma once
// Host code that read or wrote device memory (memory/device_pages.hpp): on a GPU a
// segmentation fault; here a report naming the access, with the faulting instruction's
// code offset for the grader to name its line, and exit code kExitHostDeviceAccess.
#include <signal.h>

namespace parlab_sim::detail {

// Ends the process with that report when the SIGSEGV `info` is an access to a live
// device allocation's closed pages (its slack and the rest of its first page included);
// returns otherwise. Signal-safe. Only for a thread that runs no kernel.
void report_if_host_device_access(const siginfo_t* info, const void* context);

}  // namespace parlab_sim::detail
