#pragma once
// Device allocations still live when the program exits are a leak: each call of the
// student's function loses them again (a GPU runs out of memory). The check remembers
// where each cudaMalloc was made and reports a finding at exit (report/diagnostics).
#include <cstddef>
#include <cstdint>
#include <source_location>

namespace parlab_sim::detail {

void remember_allocation_site(std::uintptr_t begin, std::size_t bytes, std::source_location site);
void forget_allocation_site(std::uintptr_t begin);
// Reports the live allocations remembered (called at exit; tests call it directly).
void report_leaked_allocations();

}  // namespace parlab_sim::detail
