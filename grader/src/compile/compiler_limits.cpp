#include "compile/compiler_limits.hpp"

#include <cmath>

namespace parlab::grader {
namespace {

constexpr std::uint64_t kGccAddressSpaceMb = 4096;  // cc1plus for the labs needs < 1 GiB

bool says(const RunResult& run, const char* text) {
  return run.stderr_text.find(text) != std::string::npos ||
         run.stdout_text.find(text) != std::string::npos;
}

std::string memory_words(const ResourceLimits& limits) {
  std::string out = "the compiler ran out of memory";
  if (limits.address_space_mb > 0)
    out += " (limit " + std::to_string(limits.address_space_mb / 1024) + " GiB)";
  return out + ": something in the code makes the compiler build something huge (an "
               "#include of a device or a very large file, or a runaway template or "
               "constexpr computation)";
}

std::string time_words(const ResourceLimits& limits, bool cpu) {
  const double seconds = cpu ? limits.cpu_seconds : limits.wall_seconds;
  return std::string("the compiler ran out of time (") + (cpu ? "CPU" : "wall-clock") +
         " limit " + std::to_string(static_cast<long>(std::ceil(seconds))) +
         " s): something in the code keeps the compiler busy (a runaway template or "
         "constexpr computation)";
}

}  // namespace

ResourceLimits compiler_limits(BuildTarget target) {
  ResourceLimits limits;
  limits.wall_seconds = 180;
  limits.cpu_seconds = 120;
  limits.address_space_mb = target == BuildTarget::cuda ? 0 : kGccAddressSpaceMb;
  limits.file_size_mb = 512;
  limits.max_processes = 64;
  limits.output_bytes = 64 * 1024;
  return limits;
}

std::string compiler_stop_reason(const RunResult& run, const ResourceLimits& limits) {
  switch (run.outcome) {
    case RunOutcome::memory_limit: return memory_words(limits);
    case RunOutcome::timeout: return time_words(limits, false);
    case RunOutcome::cpu_limit: return time_words(limits, true);
    case RunOutcome::output_limit:
      return "the compiler's output grew past the limit (a file it wrote, or its messages): " +
             run.reason;
    default: break;
  }
  // The driver (g++, nvcc) usually survives and reports its child's fate. The exception
  // is matched as the runtime's words for an uncaught one: a compile error may name the
  // type (a header broken before <new>), and is then no memory limit.
  if (says(run, "out of memory allocating") || says(run, "virtual memory exhausted") ||
      says(run, "instance of 'std::bad_alloc'") || says(run, "Cannot allocate memory"))
    return memory_words(limits);
  if (says(run, "CPU time limit exceeded")) return time_words(limits, true);
  if (says(run, "File size limit exceeded"))
    return "the compiler's output grew past the file size limit of " +
           std::to_string(limits.file_size_mb) + " MiB";
  if (says(run, "Killed signal terminated program"))
    return memory_words(limits) + " (one of its processes was killed, most likely for memory)";
  // RLIMIT_NPROC counts every process of the sandbox user, other gradings' too.
  if (says(run, "vfork: Resource temporarily unavailable") ||
      says(run, "fork: Resource temporarily unavailable"))
    return "the compiler could not start one of its programs: the sandbox user's process "
           "limit (" + std::to_string(limits.max_processes) +
           ") was reached, most likely by other work on this machine; re-run the grading";
  if (run.outcome == RunOutcome::crashed) return "the compiler crashed: " + run.reason;
  if (run.outcome != RunOutcome::ok && run.outcome != RunOutcome::nonzero_exit)
    return "the compiler stopped: " + run.reason;
  return "";
}

}  // namespace parlab::grader
