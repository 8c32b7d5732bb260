#include "fault/signal_handlers.hpp"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "config/program_code.hpp"
#include "lane/lane.hpp"
#include "fault/code_offset.hpp"
#include "fault/fatal_report.hpp"
#include "fault/host_device_access.hpp"
#include "fault/memory_fault.hpp"
#include "fault/pending_copy_fault.hpp"
#include "memory/device_pages.hpp"
#include "parlab_sim/exit_codes.hpp"

namespace parlab_sim::detail {
namespace {

// SIGTRAP: stepping over an access next to a pending copy (fault/pending_copy_fault.hpp).
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
constexpr int kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);
struct sigaction g_previous[kSignalCount];

int signal_slot(int signal) {
  for (int i = 0; i < kSignalCount; ++i) {
    if (kSignals[i] == signal) return i;
  }
  return 0;
}

// The kernel faulted: explain and exit.
[[noreturn]] void report_kernel_fault(int signal, const siginfo_t* info, const void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  ReportText text;
  switch (signal) {
    case SIGSEGV:
    case SIGBUS: {
      const char* access = "invalid memory access";
#if defined(__x86_64__)
      const auto* uc = static_cast<const ucontext_t*>(context);
      access = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0 ? "invalid memory write"
                                                          : "invalid memory read";
#else
      (void)context;
#endif
      if (info->si_code != SI_KERNEL) {
        report_kernel_memory_fault(access, address, true, instruction_of(context));
      }
      begin_report(text, access).add(":\n  ");
      text.add("general protection fault (a misaligned vector access, e.g. a float4 load "
               "from an address\n  that is not 16-byte aligned, or a corrupt pointer).");
      text.add(kIllegalAddressNote);
      add_code_offset(text, context);
      finish_report(text, kExitMemoryFault, true);
    }
    case SIGFPE:
      begin_report(text, "arithmetic fault").add(":\n  integer division by zero (or INT_MIN / -1); "
                                                 "a GPU gives an undefined result instead.");
      add_code_offset(text, context);
      finish_report(text, kExitKernelFault, true);
    case SIGILL:
      begin_report(text, "illegal instruction").add(":\n  the kernel reached code marked "
                                                    "unreachable, or called __builtin_trap().");
      add_code_offset(text, context);
      finish_report(text, kExitKernelFault, true);
    default:
      begin_report(text, "abort()").add(":\n  a failed assert() in the kernel (see the message "
                                        "above), or std::terminate.\n  (a GPU reports a failed "
                                        "device assert as cudaErrorAssert)");
      finish_report(text, kExitKernelFault, true);
  }
}

void on_fault(int signal, siginfo_t* info, void* context) {
  if (handle_pending_copy_signal(signal, info, context)) return;
  // A kernel's first touch of a device allocation (memory/device_pages.hpp): retry.
  if (signal == SIGSEGV && t_lane != nullptr && info->si_code == SEGV_ACCERR &&
      open_for_kernel(reinterpret_cast<std::uintptr_t>(info->si_addr))) {
    return;
  }
  if (t_lane != nullptr && signal != SIGTRAP) report_kernel_fault(signal, info, context);
  if (signal == SIGSEGV) report_if_host_device_access(info, context);  // ends the process if so
  if ((signal == SIGSEGV || signal == SIGBUS) &&
      is_simulator_guard_address(reinterpret_cast<std::uintptr_t>(info->si_addr))) {
    ReportText text;
    text.add("parlab-sim: host code touched the guard page or freed memory of a device "
             "allocation:\n  ");
    describe_fault_address(text, reinterpret_cast<std::uintptr_t>(info->si_addr));
    text.add("\n  (on a GPU system, host code cannot dereference device pointers at all)");
    add_code_offset(text, context);
    text.add('\n');
    text.write_to_stderr();
  }
  // Not a kernel fault: behave as if we were never installed. Returning re-runs the
  // faulting instruction (or abort() raises again) under the previous disposition.
  sigaction(signal, &g_previous[signal_slot(signal)], nullptr);
}

}  // namespace

void ensure_fault_handlers_installed() {
  look_up_program_code_once();  // done at start-up; here for a runtime started without it
  for (int i = 0; i < kSignalCount; ++i) {
    struct sigaction current {};
    sigaction(kSignals[i], nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == &on_fault) continue;
    struct sigaction ours {};
    ours.sa_sigaction = &on_fault;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&ours.sa_mask);
    sigaction(kSignals[i], &ours, &g_previous[i]);
  }
}

std::unique_ptr<char[]> install_alternate_signal_stack() {
  constexpr std::size_t kBytes = 64 * 1024;
  // Owned by the caller (the worker pool, for the worker's lifetime): a pointer that
  // only the kernel held was a leak to LeakSanitizer, 64 KiB per worker, at every exit.
  std::unique_ptr<char[]> memory(new (std::nothrow) char[kBytes]);
  if (memory == nullptr) return memory;
  stack_t stack{};
  stack.ss_sp = memory.get();
  stack.ss_size = kBytes;
  if (sigaltstack(&stack, nullptr) != 0) memory.reset();
  return memory;
}

}  // namespace parlab_sim::detail
