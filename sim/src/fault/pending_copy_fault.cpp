#include "fault/pending_copy_fault.hpp"

#include <execinfo.h>
#include <ucontext.h>

#include <cstdint>

#include "copies/deferred_copies.hpp"

namespace parlab_sim::detail {
namespace {

#if defined(__x86_64__)
constexpr greg_t kTrapFlag = 0x100;
constexpr int kMaxSteppedPages = 4;  // an instruction touches two pages at most
thread_local std::uintptr_t t_stepped_pages[kMaxSteppedPages];
thread_local int t_stepped_count = 0;
thread_local const void* t_fault_pc = nullptr;

// The callers of the faulting instruction: the frames after it in the handler's
// backtrace (the unwinder steps through the signal frame).
int capture_frames(void** frames, int max) {
  void* all[64];
  const int count = backtrace(all, 64);
  int first = 0;
  for (int i = 0; i < count; ++i) {
    if (all[i] == t_fault_pc) {
      first = i + 1;
      break;
    }
  }
  int taken = 0;
  for (int i = first; i < count && taken < max; ++i) frames[taken++] = all[i];
  return taken;
}
#endif

}  // namespace

bool handle_pending_copy_signal(int signal, siginfo_t* info, void* context) {
#if defined(__x86_64__)
  auto* uc = static_cast<ucontext_t*>(context);
  if (signal == SIGTRAP) {
    if (t_stepped_count == 0) return false;
    for (int i = 0; i < t_stepped_count; ++i) reprotect_pending_page(t_stepped_pages[i]);
    t_stepped_count = 0;
    uc->uc_mcontext.gregs[REG_EFL] &= ~kTrapFlag;
    return true;
  }
  if (signal != SIGSEGV || info->si_code != SEGV_ACCERR) return false;
  const bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  t_fault_pc = reinterpret_cast<const void*>(uc->uc_mcontext.gregs[REG_RIP]);
  std::uintptr_t page = 0;
  switch (on_pending_page_fault(reinterpret_cast<std::uintptr_t>(info->si_addr), write,
                                t_fault_pc, &capture_frames, page)) {
    case PendingPageFault::none: return false;
    case PendingPageFault::early: return true;
    case PendingPageFault::neighbour:
      if (t_stepped_count < kMaxSteppedPages) t_stepped_pages[t_stepped_count++] = page;
      uc->uc_mcontext.gregs[REG_EFL] |= kTrapFlag;
      return true;
  }
  return false;
#else
  (void)signal, (void)info, (void)context;
  return false;  // elsewhere, the pages are never made inaccessible (deferred_copies.cpp)
#endif
}

}  // namespace parlab_sim::detail
