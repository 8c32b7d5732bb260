#include "process/oom_kills.hpp"

#include <fstream>
#include <string>

namespace parlab::grader::process {

std::optional<std::uint64_t> oom_kill_count() {
  std::ifstream vmstat("/proc/vmstat");
  std::string name;
  std::uint64_t value = 0;
  while (vmstat >> name >> value) {
    if (name == "oom_kill") return value;
  }
  return std::nullopt;
}

}  // namespace parlab::grader::process
