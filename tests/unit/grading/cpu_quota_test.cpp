#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>

#include "grading/cpu_quota.hpp"
#include "grading/host_info.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {
struct FakeCgroups {
  fs::path root;
  explicit FakeCgroups(const std::string& name) {
    root = fs::temp_directory_path() / ("parlab-cgroup-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~FakeCgroups() { fs::remove_all(root); }
  void write(const fs::path& rel, const std::string& text) const {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text << "\n";
  }
};
}  // namespace

TEST_CASE("cgroup v2 cpu.max: quota over period, tightest ancestor", "[cpu_quota]") {
  FakeCgroups f("v2");
  f.write("self", "0::/docker/abc");
  f.write("fs/cpu.max", "max 100000");
  f.write("fs/docker/cpu.max", "300000 100000");
  f.write("fs/docker/abc/cpu.max", "150000 100000");
  CHECK(cgroup_cpu_limit(f.root / "fs", f.root / "self") == Approx(1.5));
  f.write("fs/docker/abc/cpu.max", "max 100000");
  CHECK(cgroup_cpu_limit(f.root / "fs", f.root / "self") == Approx(3.0));
}

TEST_CASE("cgroup v1 cfs quota, and no quota at all", "[cpu_quota]") {
  FakeCgroups f("v1");
  f.write("self", "4:memory:/x\n3:cpu,cpuacct:/slurm/job1\n0::/");
  f.write("fs/cpu,cpuacct/slurm/job1/cpu.cfs_quota_us", "200000");
  f.write("fs/cpu,cpuacct/slurm/job1/cpu.cfs_period_us", "100000");
  CHECK(cgroup_cpu_limit(f.root / "fs", f.root / "self") == Approx(2.0));
  f.write("fs/cpu,cpuacct/slurm/job1/cpu.cfs_quota_us", "-1");
  CHECK(cgroup_cpu_limit(f.root / "fs", f.root / "self") == 0);
  CHECK(cgroup_cpu_limit(f.root / "missing", f.root / "missing-self") == 0);
}

TEST_CASE("malformed quota files mean no known limit", "[cpu_quota]") {
  FakeCgroups f("bad");
  f.write("self", "0::/a");
  f.write("fs/a/cpu.max", "lots 100000");
  CHECK(cgroup_cpu_limit(f.root / "fs", f.root / "self") == 0);
}

TEST_CASE("available cores never exceed the affinity mask", "[cpu_quota]") {
  CHECK(available_cores() >= 1);
  CHECK(available_cores() <= static_cast<int>(std::thread::hardware_concurrency()));
}
