#pragma once
// Turns a hardware fault inside a kernel (SIGSEGV, SIGBUS, SIGFPE, SIGILL, and the
// SIGABRT of a failed assert) into a report naming the kernel, block and thread and
// what the address was (past the end of which allocation, freed memory, stack
// overflow, ...), then exits with a documented code. Faults outside kernels keep
// their normal behaviour (the previous handler, usually the default crash).
#include <memory>

namespace parlab_sim::detail {

// Installs the handlers, or re-installs them when something replaced them (a test
// framework does that around each test). Cheap; called at every launch.
void ensure_fault_handlers_installed();

// An alternate signal stack for the calling thread, so that the overflow of a fiber
// stack can still be reported. Called by every worker thread; the returned memory must
// be kept for as long as the thread runs (null: none could be had, no alternate stack).
std::unique_ptr<char[]> install_alternate_signal_stack();

}  // namespace parlab_sim::detail
