// The lab05 programs built in sim mode, end to end on generated data: every task of the
// GPU reference (the assignment's kernels, the register-blocked SGEMM, cuBLAS through
// the simulator's CPU SGEMM) matches the CPU reference within the lab's tolerance on
// edge shapes, and the skeleton leaves C unwritten (NaN).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <string>

#include "lab05_test_support.hpp"
#include "parlab/harness/arrays.hpp"

namespace fs = std::filesystem;

namespace {

// Runs `exe --task T --dataset D --out O`; returns the exit status.
int run_task(const std::string& exe, const std::string& task, const fs::path& data,
             const fs::path& out) {
  fs::remove_all(out);
  const std::string command = "PARLAB_SIM_ALLOW_EXITED_AT_BARRIER=1 '" + exe + "' --task " +
                              task + " --dataset '" + data.string() + "' --out '" +
                              out.string() + "' 2>'" + out.string() + ".stderr'";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<double> read_c(const fs::path& out) {
  for (const auto& array : parlab::harness::read_outputs(out)) {
    if (array.name == "c") return array.values;
  }
  FAIL("no array c in " << out);
  return {};
}

}  // namespace

TEST_CASE("every lab05 reference task matches the CPU reference in sim mode", "[lab05][sim]") {
  const int shapes[][3] = {{1, 1, 1}, {17, 15, 33}, {37, 53, 29}, {130, 36, 20}, {8, 132, 260}};
  for (const auto& s : shapes) {
    const fs::path data = lab05_test::generate("sim-data", s[0], s[1], s[2], 11);
    const fs::path expected_dir = data.parent_path() / "expected";
    REQUIRE(run_task(LAB05_CPU_REFERENCE, "tiled", data, expected_dir) == 0);
    const std::vector<double> expected = read_c(expected_dir);
    for (const char* task : {"naive", "tiled", "tiled_roundtrip", "sgemm_regblock", "sgemm_cublas"}) {
      const fs::path out = data.parent_path() / task;
      INFO(task << " on " << s[0] << "x" << s[1] << "x" << s[2]);
      REQUIRE(run_task(LAB05_REFERENCE_SIM, task, data, out) == 0);
      const std::vector<double> got = read_c(out);
      REQUIRE(got.size() == expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i);
        REQUIRE(std::fabs(got[i] - expected[i]) <= 1e-3 + 1e-5 * std::fabs(expected[i]));
      }
    }
  }
}

TEST_CASE("the lab05 skeleton runs but writes no element of C", "[lab05][sim]") {
  const fs::path data = lab05_test::generate("skeleton-data", 17, 17, 17, 12);
  const fs::path out = data.parent_path() / "skeleton-out";
  REQUIRE(run_task(LAB05_SKELETON_SIM, "tiled", data, out) == 0);
  for (double v : read_c(out)) REQUIRE(std::isnan(v));
}
