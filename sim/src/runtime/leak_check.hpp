#pragma once
// Device allocations still live when the program exits are a leak: each call of the
// student's function loses them again (a GPU runs out of memory). The check remembers
// where each cudaMalloc was made and reports a finding at exit (report/diagnostics).
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <source_location>

namespace parlab_sim::detail {

// The device's live allocations, by start address (runtime/device_context holds them).
struct LiveAllocations {
  struct Site {
    std::size_t bytes;
    std::source_location where;
  };
  std::mutex mutex;
  std::map<std::uintptr_t, Site> sites;  // the first made is first
};

void remember_allocation_site(std::uintptr_t begin, std::size_t bytes, std::source_location site);
void forget_allocation_site(std::uintptr_t begin);
// Reports the live allocations remembered (called at exit; tests call it directly).
void report_leaked_allocations();

}  // namespace parlab_sim::detail
