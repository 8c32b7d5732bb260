#include "fault/code_offset.hpp"

#include <ucontext.h>

#include <cstdint>

#include "config/locked_state.hpp"

namespace parlab_sim::detail {
namespace {

// How far up the stack a caller is looked for: a libc or libstdc++ frame chain
// (printf's is the deepest the labs meet) stays well within it, and every thread's stack
// has more than this above any frame (the main thread's arguments and environment, a
// pthread's own descriptor), so the reads stay in mapped memory.
constexpr std::size_t kCallerScanWords = 256;

// x86-64 call instructions that end just before `after`: call rel32 (E8), call through
// a RIP-relative pointer (FF 15, -fno-plt), call through a register (FF D0..D7).
bool follows_call(std::uintptr_t after) {
  const auto* code = reinterpret_cast<const unsigned char*>(after);
  return code[-5] == 0xE8 || (code[-6] == 0xFF && code[-5] == 0x15) ||
         (code[-2] == 0xFF && (code[-1] & 0xF8) == 0xD0);
}

}  // namespace

bool in_program_code(std::uintptr_t instruction) {
  const ProgramCodeRange& code = g_locked.program_code;
  return instruction != 0 && instruction >= code.begin && instruction < code.end;
}

thread_local std::uintptr_t t_checked_copy_caller = 0;

std::uintptr_t program_call_site(const void* context) {
  if (t_checked_copy_caller != 0) return t_checked_copy_caller - 1;
#if defined(__x86_64__)
  if (context == nullptr) return 0;
  const auto* uc = static_cast<const ucontext_t*>(context);
  const auto* stack = reinterpret_cast<const std::uintptr_t*>(uc->uc_mcontext.gregs[REG_RSP]);
  const std::uintptr_t lowest = g_locked.program_code.begin + 6;
  for (std::size_t i = 0; stack != nullptr && i < kCallerScanWords; ++i) {
    const std::uintptr_t word = stack[i];
    if (in_program_code(word) && word >= lowest && follows_call(word)) return word - 1;
  }
#else
  (void)context;
#endif
  return 0;
}

std::uintptr_t instruction_of(const void* context) {
#if defined(__x86_64__)
  if (context == nullptr) return 0;
  const auto* uc = static_cast<const ucontext_t*>(context);
  return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#else
  (void)context;
  return 0;
#endif
}

void add_code_offset_of(ReportText& text, std::uintptr_t pc) {
  const ProgramCodeRange& code = g_locked.program_code;
  if (pc == 0 || pc < code.begin || pc >= code.end) return;
  // addr2line takes the address the ELF file gives the instruction: minus the load bias
  // (a position-independent executable's load address; 0 otherwise).
  const std::uintptr_t offset = pc - code.load_bias;
  text.add("\n  at code offset ").add_hex(offset).add(" of the program");
  text.note_code_offset(offset);
}

void add_code_offset(ReportText& text, const void* context) {
  add_code_offset_of(text, instruction_of(context));
}

}  // namespace parlab_sim::detail
