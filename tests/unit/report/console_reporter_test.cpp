#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "report/reporter.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

TEST_CASE("console colors only when asked", "[report][console]") {
  const GradeResult r = sample_grade_result();
  CHECK(make_reporter("console", {})->render(r).find('\x1b') == std::string::npos);
  CHECK_THAT(make_reporter("console", {.color = true})->render(r), Contains("\x1b[31mfailed"));
}

TEST_CASE("console shows the table, total and teaching details", "[report][console]") {
  const std::string out = make_reporter("console", {})->render(sample_grade_result());
  CHECK_THAT(out, Contains("  speedup_parallel             partial       5.33 / 15  1.42x (none at 1.1x, full at 2x)"));
  CHECK_THAT(out, Contains("1.42x \xC2\xB1" "6%"));
  CHECK_THAT(out, Contains("\nTotal: 15.33 / 80 graded here (100 in all); 10 points not graded here (no CUDA GPU on this machine);\n"
                           "       10 points inconclusive (machine busy): re-run\n"));
  CHECK_THAT(out, Contains("First mismatch: file_mean[17] (sensors_017.csv): expected 20.5, "
                           "got NaN, tolerance rtol 1e-09,\n    atol 1e-12"));
  CHECK_THAT(out, Contains("3 of 64 elements differ"));
  CHECK_THAT(out, Contains("Run: crashed (killed by a signal)"));
  CHECK_THAT(out, Contains("      | Segmentation fault (core dumped)"));
  CHECK_THAT(out, Contains("seed 2718281828"));
}

TEST_CASE("console names why a test was inconclusive, not always a busy machine", "[report][console]") {
  // The grader's own sentences (grading/performance_verdict.cpp): each cause its words.
  const std::pair<std::string, std::string> cases[] = {
      {"0.99x the speed of reference:parallel_static; inconclusive: on this machine, now, the "
       "reference's own parallel_dynamic was 1.02x the speed of reference:parallel_static",
       "the reference's own gain too small here"},
      {"1.1x the speed; inconclusive: the ratios stayed too spread out to judge; nothing is counted",
       "too noisy to judge"},
  };
  for (const auto& [message, cause] : cases) {
    GradeResult r = sample_grade_result();
    for (TestResult& t : r.tests) {
      if (t.status != TestStatus::inconclusive) continue;
      t.message = message;
      t.measurement.reset();
    }
    const std::string out = make_reporter("console", {})->render(r);
    CHECK_THAT(out, Contains(cause + ": re-run"));
    CHECK_THAT(out, Contains("10 points inconclusive (" + cause + "): re-run"));
    CHECK_THAT(out, !Contains("machine busy"));
  }
}

TEST_CASE("console lines carry no trailing spaces", "[report][console]") {
  for (bool verbose : {false, true}) {
    std::istringstream lines(make_reporter("console", {.verbose = verbose})->render(sample_grade_result()));
    for (std::string line; std::getline(lines, line);) {
      INFO(line);
      CHECK((line.empty() || line.back() != ' '));
    }
  }
}

TEST_CASE("console neutralizes terminal control sequences in student output", "[report][console]") {
  GradeResult r = sample_grade_result();
  r.tests[4].stderr_tail = "\x1b[2Jcleared\r\nline\n";
  const std::string out = make_reporter("console", {})->render(r);
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK_THAT(out, Contains("\\x1b[2Jcleared\n"));
}

TEST_CASE("console shows the device, GPU time per phase and roofline feedback",
          "[report][console]") {
  GradeResult r = sample_grade_result();
  r.device = {.mode = DeviceMode::gpu, .name = "NVIDIA H100 80GB HBM3",
              .detail = "compute capability 9.0, 79 GiB, 132 SMs", .bandwidth_gbs = 3000,
              .sgemm_gflops = 50000};
  r.tests[0].phases = {{"kernels", 0.00041}, {"host_to_device", 0.0029}};
  r.tests[1].roofline = Roofline{.bound = RooflineBound::memory, .unit = "GB/s", .achieved = 600,
                                 .peak = 3000, .fraction = 0.2,
                                 .hint = "check that neighbouring threads read neighbouring "
                                         "addresses"};
  const std::string out = make_reporter("console", {})->render(r);
  CHECK_THAT(out, Contains("Device:     NVIDIA H100 80GB HBM3 (compute capability 9.0, 79 GiB, "
                           "132 SMs);"));
  CHECK_THAT(out, Contains("measured peaks: 3000\n            GB/s copy, 50000 GFLOP/s cuBLAS SGEMM"));
  // A passing test still gets its GPU times shown: transfers vs kernels is the lesson.
  CHECK_THAT(out, Contains("GPU time (median): kernels 410.0 us, host to device 2.9 ms"));
  CHECK_THAT(out, Contains("Roofline: 600 GB/s, 20% of this GPU's measured copy bandwidth "
                           "(3000 GB/s)"));
  CHECK_THAT(out, Contains("Hint: check that neighbouring threads read neighbouring addresses"));

  r.device = {.mode = DeviceMode::sim, .name = "sim", .detail = "no usable CUDA device: no NVIDIA driver"};
  CHECK_THAT(make_reporter("console", {})->render(r),
             Contains("Device:     simulator, on the CPU (no usable CUDA device: no NVIDIA "
                      "driver)"));
}

namespace {
std::size_t code_points(const std::string& line) {
  std::size_t n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}
}  // namespace

TEST_CASE("console lines fit the terminal's width", "[report][console]") {
  for (std::size_t width : {60u, 80u, 100u}) {
    for (bool verbose : {false, true}) {
      for (const GradeResult& r : {sample_grade_result(), sample_build_failed_result()}) {
        ReportOptions options;
        options.verbose = verbose;
        options.width = width;
        options.full_report = "/home/student/.cache/parlab/lab01/0123456789abcdef/result.json";
        std::istringstream lines(make_reporter("console", options)->render(r));
        for (std::string line; std::getline(lines, line);) {
          INFO(width << " columns: " << line);
          CHECK(code_points(line) <= width);
        }
      }
    }
  }
}

TEST_CASE("a row's reason too long for the row is said whole under it", "[report][console]") {
  GradeResult r = sample_grade_result();
  TestResult& t = r.tests.front();
  t.status = TestStatus::skipped;
  t.outcome = RunOutcome::not_run;
  t.mismatch.reset();
  t.message = "not measured: correctness test 'matrix_scale, 509 x 33 (tall)' did not pass; "
              "speed only counts for correct code";
  ReportOptions options;
  options.width = 80;
  const std::string out = make_reporter("console", options)->render(r);
  CHECK_THAT(out, Contains("      not measured: correctness test 'matrix_scale, 509 x 33 (tall)' did not"));
  CHECK_THAT(out, Contains("      pass; speed only counts for correct code\n"));
  CHECK(out.find("correctness tes...") == std::string::npos);
}
