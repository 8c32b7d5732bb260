#include "grading/host_info.hpp"

#include "grading/cpu_quota.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>

namespace parlab::grader {

int available_cores() {
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) cores = CPU_COUNT(&set);
  // A quota of 1.5 cores cannot run two workers at full speed: whole cores only.
  if (double quota = cgroup_cpu_limit(); quota > 0) {
    cores = std::min(cores, std::max(1, static_cast<int>(std::floor(quota + 1e-9))));
  }
  return cores;
}

int machine_cpus() {
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : available_cores();
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
