#include "fault/memory_fault.hpp"

#include "fault/code_offset.hpp"

#include "lane/lane.hpp"
#include "fault/fatal_report.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/shared_memory.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

bool describe_stack_overflow(ReportText& text, std::uintptr_t address) {
  const Lane* lane = t_lane;
  if (lane == nullptr || lane->fiber == nullptr) return false;
  const StackRange& stack = lane->fiber->stack;
  if (address < stack.guard_begin || address >= stack.guard_end) return false;
  text.add("stack overflow: the thread used more than its ");
  text.add_decimal(fiber_stack_bytes() / 1024).add(" KiB of stack (a large local array or deep "
                                                    "recursion?).\n  PARLAB_SIM_STACK_KIB=<KiB> "
                                                    "gives each CUDA thread more.");
  return true;
}

bool describe_dynamic_shared(ReportText& text, std::uintptr_t address) {
  if (t_running_block.dynamic_shared == nullptr || t_lane == nullptr) return false;
  const DynamicSharedBuffer& buffer = *t_running_block.dynamic_shared;
  if (!buffer.in_guard(address) && !buffer.in_buffer(address)) return false;
  const auto base = reinterpret_cast<std::uintptr_t>(t_dynamic_shared);
  text.add("out-of-bounds access to dynamic shared memory (extern __shared__): byte offset ");
  if (address >= base) {
    text.add_decimal(address - base);
  } else {
    text.add('-').add_decimal(base - address);
  }
  text.add(", but the launch gave the block ").add_bytes(buffer.placed_bytes());
  text.add(" (the third <<<>>> argument).");
  return true;
}

void describe_allocation(ReportText& text, std::uintptr_t address, const MemoryRange& range) {
  const std::uint64_t size = range.end - range.begin;
  if (range.kind == MemoryKind::freed) {
    text.add("use after free: the address is in a ").add(memory_kind_name(range.freed_kind));
    text.add(" of ").add_bytes(size).add(" that was already freed.");
    return;
  }
  text.add("out-of-bounds access: the address is ");
  if (address == range.end) {
    text.add("just past the end of");
  } else if (address > range.end) {
    text.add_bytes(address - range.end).add(" past the end of");
  } else if (address < range.begin) {
    text.add_bytes(range.begin - address).add(" before the start of");
  } else {
    text.add("byte ").add_decimal(address - range.begin).add(" of");
  }
  text.add(" a ").add(memory_kind_name(range.kind)).add(" of ").add_bytes(size);
  text.add("\n  (valid addresses ").add_hex(range.begin).add(" to ").add_hex(range.end - 1).add(").");
}

}  // namespace

void describe_fault_address(ReportText& text, std::uintptr_t address) {
  if (describe_stack_overflow(text, address)) return;
  if (describe_dynamic_shared(text, address)) return;
  MemoryRange range;
  if (MemoryRegistry::instance().find(address, range)) {
    describe_allocation(text, address, range);
    return;
  }
  if (address < 4096) {
    text.add("null pointer dereference (address ").add_hex(address).add(").");
    return;
  }
  text.add("address ").add_hex(address).add(" is not memory the kernel may use (a host "
                                             "pointer, or an uninitialized or stale pointer?).");
}

bool is_simulator_guard_address(std::uintptr_t address) {
  MemoryRange range;
  if (!MemoryRegistry::instance().find(address, range)) return false;
  return range.kind == MemoryKind::freed || address < range.begin || address >= range.end;
}

void report_kernel_memory_fault(const char* access, std::uintptr_t address,
                                bool in_signal_handler, std::uintptr_t instruction) {
  ReportText text;
  begin_report(text, access).add(":\n  ");
  describe_fault_address(text, address);
  text.add(kIllegalAddressNote);
  add_code_offset_of(text, instruction);
  finish_report(text, kExitMemoryFault, in_signal_handler);
}

}  // namespace parlab_sim::detail
