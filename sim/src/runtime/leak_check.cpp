#include "runtime/leak_check.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "parlab_sim/source_names.hpp"
#include "report/diagnostics.hpp"
#include "runtime/device_context.hpp"

namespace parlab_sim::detail {
namespace {

LiveAllocations& live() { return device_context().allocations; }

void check_at_exit() { report_leaked_allocations(); }

}  // namespace

void remember_allocation_site(std::uintptr_t begin, std::size_t bytes, std::source_location site) {
  static const bool registered = std::atexit(check_at_exit) == 0;
  (void)registered;
  LiveAllocations& all = live();
  std::lock_guard lock(all.mutex);
  all.sites[begin] = LiveAllocations::Site{bytes, site};
}

void forget_allocation_site(std::uintptr_t begin) {
  LiveAllocations& all = live();
  std::lock_guard lock(all.mutex);
  all.sites.erase(begin);
}

void report_leaked_allocations() {
  LiveAllocations& all = live();
  std::size_t count = 0;
  std::size_t bytes = 0;
  std::map<std::string, std::size_t> per_site;  // "file:line" -> allocations
  {
    std::lock_guard lock(all.mutex);
    for (const auto& [begin, site] : all.sites) {
      ++count;
      bytes += site.bytes;
      ++per_site[std::string(source_display_name(site.where.file_name())) + ":" +
                 std::to_string(site.where.line())];
    }
  }
  if (count == 0) return;
  std::string sites;
  for (const auto& [where, n] : per_site) {
    if (!sites.empty()) sites += ", ";
    sites += where + " (" + std::to_string(n) + "x)";
  }
  report_finding(kFindingDeviceMemoryLeak, sites, "device memory never freed, allocated at " + sites,
                 "device memory leak: " + std::to_string(count) + " cudaMalloc allocation" +
                     (count == 1 ? "" : "s") + " (" + std::to_string(bytes) +
                     " bytes) never freed with cudaFree, made at " + sites +
                     ". Every call of your code loses this memory again, and a long-running "
                     "program runs out of GPU memory: free what you allocate before returning.");
}

}  // namespace parlab_sim::detail
