#pragma once
// Explains a faulting address: which allocation it is near and how far out of bounds,
// freed memory, the fiber stack guard, the dynamic shared memory guard, null.
// Signal-safe: reads only lock-free state.
#include <cstdint>

#include "fault/report_text.hpp"

namespace parlab_sim::detail {

void describe_fault_address(ReportText& text, std::uintptr_t address);

// True when `address` is in a guard page or freed range of simulator-owned memory,
// i.e. host code touched device memory it should not have.
bool is_simulator_guard_address(std::uintptr_t address);

}  // namespace parlab_sim::detail
