#pragma once
// The SIGSEGV and SIGTRAP side of watching pending asynchronous copies
// (copies/deferred_copies.hpp): a fault on a pending copy's destination pages (or a
// write on a pending copy to the device's read-only source pages) is
// either an early access (recorded, then retried on the stale bytes) or an access to
// other bytes of those pages, which runs as one single-stepped instruction (x86-64 trap
// flag) with the page accessible, then the page is made inaccessible again.
#include <signal.h>

namespace parlab_sim::detail {

// True when the signal was ours and handled: return from the handler.
bool handle_pending_copy_signal(int signal, siginfo_t* info, void* context);

}  // namespace parlab_sim::detail
