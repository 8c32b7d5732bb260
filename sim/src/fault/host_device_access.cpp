#include "fault/host_device_access.hpp"

#include <ucontext.h>

#include <cstdint>

#include "fault/code_offset.hpp"
#include "fault/fatal_report.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "memory/guarded_mapping.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

// Read or write from the page fault's error code; x86-64 only, "accessed" elsewhere.
const char* access_verb(const void* context) {
#if defined(__x86_64__)
  const auto* uc = static_cast<const ucontext_t*>(context);
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0 ? "wrote" : "read";
#else
  (void)context;
  return "accessed";
#endif
}

// The access's code offset; for an access inside a library function (host code passing
// a device pointer to memcpy, printf("%s") or std::copy), the program's call instead,
// so that the grader still names the student's line.
void add_access_place(ReportText& text, const void* context) {
  if (in_program_code(instruction_of(context))) {
    add_code_offset(text, context);
    return;
  }
  const std::uintptr_t call = program_call_site(context);
  if (call == 0) return;
  text.add("\n  inside a library function the program called with the device pointer:");
  add_code_offset_of(text, call);
}

}  // namespace

void report_if_host_device_access(const siginfo_t* info, const void* context) {
  if (info->si_code != SEGV_ACCERR) return;
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  MemoryRange range;
  if (!MemoryRegistry::instance().find(address, range) || range.kind != MemoryKind::device ||
      address < accessible_begin(range) || address >= accessible_end(range)) {
    return;  // a guard page, freed memory or not device memory: signal_handlers.cpp
  }
  ReportText text;
  const char* verb = access_verb(context);
  text.add("parlab-sim: host code ").add(verb).add(" device memory:\n  ");
  text.note_host_access(verb[0] == 'w'   ? HostAccess::write
                        : verb[0] == 'r' ? HostAccess::read
                                         : HostAccess::none);
  if (address >= range.begin && address < range.end) {
    text.add("byte ").add_decimal(address - range.begin);
  } else if (address == range.end) {
    text.add("just past the end");
  } else if (address > range.end) {
    text.add_bytes(address - range.end).add(" past the end");
  } else {
    text.add_bytes(range.begin - address).add(" before the start");
  }
  text.add(" of a ").add(memory_kind_name(range.kind)).add(" of ").add_bytes(range.end - range.begin);
  text.add(".\n  A device pointer is only valid inside kernels and cudaMemcpy/cudaMemset: copy "
           "the data back\n  (cudaMemcpy ... cudaMemcpyDeviceToHost) and use the host copy. "
           "(on a GPU, host code\n  dereferencing a device pointer is a segmentation fault)");
  add_access_place(text, context);
  finish_report(text, kExitHostDeviceAccess, true);
}

}  // namespace parlab_sim::detail
