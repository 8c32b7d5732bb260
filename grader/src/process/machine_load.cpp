#include "process/machine_load.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace parlab::grader::process {

CpuCounters read_cpu_counters() {
  CpuCounters c;
  std::ifstream in("/proc/stat");
  std::string line;
  if (!in || !std::getline(in, line) || line.rfind("cpu ", 0) != 0) return c;
  std::istringstream fields(line.substr(4));
  // user nice system idle iowait irq softirq steal (guest time is inside user).
  unsigned long long v[8] = {};
  for (unsigned long long& x : v) {
    if (!(fields >> x)) return c;
  }
  long hz = ::sysconf(_SC_CLK_TCK);
  const double tick = 1.0 / static_cast<double>(hz > 0 ? hz : 100);
  c.busy_seconds = static_cast<double>(v[0] + v[1] + v[2] + v[5] + v[6]) * tick;
  c.steal_seconds = static_cast<double>(v[7]) * tick;
  c.ok = true;
  return c;
}

}  // namespace parlab::grader::process
