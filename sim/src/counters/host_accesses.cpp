#include "counters/host_accesses.hpp"

#include <atomic>

namespace parlab_sim::detail {

namespace {

// Constant-initialized: host code of a constructor may run before any other of ours.
constinit std::atomic<std::uint64_t> host_accesses{0};

}  // namespace

void count_host_access() noexcept { host_accesses.fetch_add(1, std::memory_order_relaxed); }

std::uint64_t take_host_accesses() noexcept { return host_accesses.exchange(0, std::memory_order_relaxed); }

}  // namespace parlab_sim::detail
