#include "grading/cpu_quota.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// Cores from one folder's files, or 0 for none there.
double limit_in(const fs::path& dir, bool v2) {
  if (v2) {
    std::istringstream max(first_line(dir / "cpu.max"));
    std::string quota;
    double period = 0;
    if (!(max >> quota >> period) || quota == "max" || period <= 0) return 0;
    return std::stod(quota) / period;
  }
  const std::string quota = first_line(dir / "cpu.cfs_quota_us");
  const std::string period = first_line(dir / "cpu.cfs_period_us");
  if (quota.empty() || period.empty() || quota[0] == '-') return 0;
  const double p = std::stod(period);
  return p > 0 ? std::stod(quota) / p : 0;
}

// The tightest limit from `dir` up to `root` (the cgroup's ancestors).
double tightest(const fs::path& root, const std::string& cgroup_path, bool v2) {
  double best = 0;
  fs::path dir = root;
  std::vector<fs::path> chain = {dir};
  for (const auto& part : fs::path(cgroup_path).relative_path()) {
    if (part.empty() || part == "." || part == "..") continue;
    dir /= part;
    chain.push_back(dir);
  }
  for (const fs::path& d : chain) {
    double l = 0;
    try {
      l = limit_in(d, v2);
    } catch (const std::exception&) {
      l = 0;  // unreadable or malformed: no limit known there
    }
    if (l > 0 && (best == 0 || l < best)) best = l;
  }
  return best;
}

}  // namespace

double cgroup_cpu_limit(const fs::path& cgroup_root, const fs::path& self_cgroup) {
  std::ifstream in(self_cgroup);
  double best = 0;
  auto keep = [&best](double l) {
    if (l > 0 && (best == 0 || l < best)) best = l;
  };
  // Lines: "0::/path" (v2) or "N:cpu,cpuacct:/path" (v1). The cgroup controller
  // "cpu", not the lab vocabulary's device word.
  const std::string cpu_controller = "cpu";
  for (std::string line; std::getline(in, line);) {
    const auto c1 = line.find(':');
    const auto c2 = line.find(':', c1 == std::string::npos ? 0 : c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) continue;
    const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
    const std::string path = line.substr(c2 + 1);
    if (controllers.empty()) {
      keep(tightest(cgroup_root, path, true));
      keep(tightest(cgroup_root / "unified", path, true));  // hybrid layout
      continue;
    }
    std::stringstream names(controllers);
    for (std::string name; std::getline(names, name, ',');) {
      if (name != cpu_controller) continue;
      for (const char* mount : {"cpu", "cpu,cpuacct", "cpuacct,cpu"}) {
        keep(tightest(cgroup_root / mount, path, false));
      }
    }
  }
  return best;
}

}  // namespace parlab::grader
