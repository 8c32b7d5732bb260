#pragma once
// Explains a faulting address: which allocation it is near and how far out of bounds,
// freed memory, the fiber stack guard, the dynamic shared memory guard, null.
// Signal-safe: reads only lock-free state.
#include <cstdint>

#include "fault/report_text.hpp"

namespace parlab_sim::detail {

// Ends every report of an invalid memory access.
inline constexpr const char* kIllegalAddressNote =
    "\n  (a GPU reports this as cudaErrorIllegalAddress: an illegal memory access was "
    "encountered)";

void describe_fault_address(ReportText& text, std::uintptr_t address);

// True when `address` is in a guard page or freed range of simulator-owned memory,
// i.e. host code touched device memory it should not have.
bool is_simulator_guard_address(std::uintptr_t address);

// Ends the process with the report of a kernel's invalid access at `address` (`access`:
// "invalid memory read", "invalid memory write"), exit code kExitMemoryFault: the same
// report whether a guard page faulted or the access hooks saw it first (race_check.cpp).
// `instruction`: the faulting instruction's address for the report's code offset (0: none).
[[noreturn]] void report_kernel_memory_fault(const char* access, std::uintptr_t address,
                                             bool in_signal_handler,
                                             std::uintptr_t instruction = 0);

}  // namespace parlab_sim::detail
