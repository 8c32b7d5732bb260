#include "grading/host_info.hpp"

#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

namespace parlab::grader {

int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

HostInfo probe_host(const std::string& sandbox_name) {
  HostInfo h;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) h.cpu_model = line.substr(colon + 2);
      break;
    }
  }
  h.cores = available_cores();
  h.sandbox = sandbox_name;
  return h;
}

}  // namespace parlab::grader
