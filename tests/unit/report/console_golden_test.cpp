// The console report of real gradings (tests/golden/results/*.json, normalized) against
// golden files: skeleton, half done, reference, build error, missing file, a sim run
// whose GPU tests cannot be graded. Every line fits 100 columns; the verdict is last.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "golden_files.hpp"
#include "report/report_text.hpp"
#include "report/reporter.hpp"
#include "result/result_json.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

namespace {

const char* const kFixtures[] = {
    "lab01_skeleton", "lab01_half_done", "lab01_reference", "lab01_build_error",
    "lab03_missing_file", "lab03_sim_reference", "lab03_gpu_reference",
};

GradeResult fixture(const std::string& name) {
  std::ifstream in(std::string(PARLAB_TESTS_DIR) + "/golden/results/" + name + ".json");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return grade_result_from_json_text(text.str());
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string render(const std::string& name) {
  ReportOptions options;
  options.full_report = "/home/student/.parlab/result.json";
  return make_reporter("console", options)->render(fixture(name));
}

}  // namespace

TEST_CASE("console reports of real gradings match their golden files", "[report][golden]") {
  for (const char* name : kFixtures) {
    SECTION(name) { check_golden(std::string("console_") + name + ".txt", render(name)); }
  }
}

TEST_CASE("every console line fits 100 columns and the verdict comes last", "[report][console]") {
  for (const char* name : kFixtures) {
    for (bool verbose : {false, true}) {
      ReportOptions options{.verbose = verbose};
      options.full_report = "/home/student/.parlab/result.json";
      const std::vector<std::string> lines =
          lines_of(make_reporter("console", options)->render(fixture(name)));
      INFO(name << (verbose ? " (verbose)" : ""));
      for (const std::string& line : lines) {
        INFO(line);
        CHECK(report_text::display_width(line) <= 100);
      }
      // The last paragraph is the total: "Total:" then only its wrapped continuation.
      std::size_t total = lines.size();
      for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].rfind("Total:", 0) == 0) total = i;
      }
      REQUIRE(total < lines.size());
      for (std::size_t i = total + 1; i < lines.size(); ++i) CHECK(lines[i].rfind("       ", 0) == 0);
      REQUIRE(total >= 2);
      CHECK(lines[total - 1].rfind("Next:", 0) == 0);
    }
  }
}

TEST_CASE("points that cannot be earned here are said, never shown as lost", "[report][console]") {
  const std::string sim = render("lab03_sim_reference");
  CHECK_THAT(sim, Contains("Total: 60 / 60 graded here (100 in all); 40 points of GPU tests need a GPU"));
  CHECK_THAT(sim, Contains("  6 tests: vector_add bandwidth, saxpy band...  not graded  - / 40\n"
                          "      not graded here: the simulator checks correctness, not speed;"));
  CHECK(sim.find("failed") == std::string::npos);
  const std::string reference = render("lab01_reference");
  CHECK_THAT(reference, Contains("  dynamic beats static on skewed sizes  inconclusive   - / 15\n"
                                 "      machine busy: re-run (other processes used 3.1 cores"));
  CHECK_THAT(reference, Contains("Re-run on a quieter machine: grade lab01 --reference --seed 2718281828"));
}

TEST_CASE("a build failure is said once, not once per test", "[report][console]") {
  const std::string out = render("lab01_build_error");
  CHECK_THAT(out, Contains("  8 tests: serial stati...  failed  0 / 100  not run: the build failed (below)\n"));
  CHECK(out.find("did not compile") == std::string::npos);
  const std::string missing = render("lab03_missing_file");
  CHECK_THAT(missing, Contains("kernels.cu is missing: a lab03 submission must contain"));
  CHECK_THAT(missing, Contains("did you mean kernel.cu? (rename it to kernels.cu)"));
  CHECK_THAT(missing, Contains("helper.cu will not be compiled"));
  CHECK_THAT(missing, Contains("Next:  fix the build error in kernels.cu, then run grade lab03 again"));
}
