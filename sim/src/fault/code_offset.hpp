#pragma once
// Where in the program the faulting instruction is, for the grader to name its line.
// Turning an address into "kernels.cu:42" takes addr2line (a process, memory, locks),
// which a SIGSEGV handler cannot run, and the submission's process is not trusted to
// say which line it was anyway. So the report carries only the instruction's offset in
// the executable ("at code offset 0x1a2b3 of the program"), formatted without
// allocating, and the grader, after the process ended, runs addr2line on the program it
// built (grader/src/grading/fault_line; docs/simulation.md, "Faults"). The executable's
// code range comes from the locked page (config/program_code), looked up at start-up.
#include "fault/report_text.hpp"

namespace parlab_sim::detail {

// Appends "\n  at code offset 0x... of the program" when the instruction the signal
// `context` (a ucontext_t) stopped at is in the executable's code (x86-64 only;
// elsewhere, and for an instruction in a shared library such as libc's memcpy,
// nothing). Signal-safe.
void add_code_offset(ReportText& text, const void* context);
// The same for an instruction's address (null: nothing), e.g. an access hook's caller.
void add_code_offset_of(ReportText& text, std::uintptr_t instruction);
// The instruction the signal `context` stopped at; 0 where it cannot be read.
std::uintptr_t instruction_of(const void* context);

// True when `instruction` is in the executable's code.
bool in_program_code(std::uintptr_t instruction);
// For a fault in a shared library (libc's memcpy or strlen, a libstdc++ function that
// host code called with a device pointer): the program's call that led there, as the
// address of the call's last byte (so that addr2line names the call's line): the first
// word on the stack above the fault that points into the executable's code just after
// a call instruction. 0 when none is found within a few hundred words, or off x86-64.
// Signal-safe: reads the interrupted thread's stack and the program's code only.
// A fault inside the C library's copy that one of the runtime's checked copies
// (exec/tsan_hooks) called on this thread is the program's call of that checked copy:
// its return address, kept here while the copy runs (0 otherwise). Whether the checked
// copy's own frame is on the stack depends on the compiler's tail calls; this does not.
std::uintptr_t program_call_site(const void* context);
extern thread_local std::uintptr_t t_checked_copy_caller;

}  // namespace parlab_sim::detail
