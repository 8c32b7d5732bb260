#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "report/reporter.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

namespace {

nlohmann::json gradescope_json(const GradeResult& r) {
  return nlohmann::json::parse(make_reporter("gradescope", {})->render(r));
}

const nlohmann::json& test_named(const nlohmann::json& doc, const std::string& name) {
  for (const auto& t : doc.at("tests")) {
    if (t.at("name") == name) return t;
  }
  FAIL("no test named " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("gradescope results follow the autograder spec's field rules", "[report][gradescope]") {
  for (const GradeResult& r : {sample_grade_result(), sample_build_failed_result()}) {
    const nlohmann::json doc = gradescope_json(r);
    REQUIRE(doc.at("score").is_number());
    REQUIRE(doc.at("execution_time").is_number_integer());
    CHECK(doc.at("output").is_string());
    CHECK(doc.at("visibility") == "visible");
    CHECK(doc.at("stdout_visibility") == "hidden");
    REQUIRE(doc.at("tests").size() == r.tests.size());  // every test a visible line
    double sum = 0;
    double max_sum = 0;
    for (const auto& t : doc.at("tests")) {
      INFO(t.dump());
      sum += t.at("score").get<double>();
      max_sum += t.at("max_score").get<double>();
      CHECK(t.at("score").get<double>() <= t.at("max_score").get<double>());
      // Left out of the total (0 of 0): no status, so neither a pass nor a failure.
      if (t.at("max_score") == 0) {
        CHECK_FALSE(t.contains("status"));
      } else {
        CHECK(std::set<std::string>{"passed", "failed"}.count(t.at("status")) == 1);
      }
      CHECK(std::set<std::string>{"visible", "after_published"}.count(t.at("visibility")) == 1);
      CHECK(t.at("name").is_string());
      CHECK(t.at("output").is_string());
    }
    CHECK(doc.at("score").get<double>() == Approx(sum));
    // Gradescope shows the tests' max_score sum beside the total: the graded-here total.
    double graded_total = 0;
    for (const TestResult& t : r.tests) {
      if (t.status != TestStatus::not_graded && t.status != TestStatus::inconclusive) graded_total += t.max_points;
    }
    CHECK(max_sum == Approx(graded_total));
  }
}

TEST_CASE("gradescope maps statuses and visibility", "[report][gradescope]") {
  const nlohmann::json doc = gradescope_json(sample_grade_result());
  CHECK(doc.at("execution_time") == 43);  // 42.7 s rounded
  CHECK(test_named(doc, "correctness_small").at("status") == "passed");
  CHECK(test_named(doc, "speedup_parallel").at("status") == "failed");  // partial
  CHECK_THAT(test_named(doc, "speedup_parallel").at("output").get<std::string>(),
             Contains("**Partial credit:** 5.33 / 15 points"));
  CHECK(test_named(doc, "speedup_parallel").at("output_format") == "md");
  CHECK(test_named(doc, "speedup_parallel").at("number") == "2");
  CHECK(test_named(doc, "speedup_parallel").at("tags") == nlohmann::json::array({"performance"}));
  CHECK(doc.at("output_format") == "md");
  CHECK(test_named(doc, "correctness_hidden").at("visibility") == "after_published");
  CHECK(test_named(doc, "correctness_small").at("visibility") == "visible");

  // Not graded here: never a red failure; 0 of 0 points, the reason in its name and the summary.
  const auto& gpu = test_named(doc, "gpu_speedup (not graded here: no CUDA GPU on this machine)");
  CHECK(gpu.at("max_score") == 0);
  CHECK_FALSE(gpu.contains("status"));
  CHECK(gpu.at("tags") == nlohmann::json::array({"performance", "not-graded"}));
  CHECK_THAT(doc.at("output").get<std::string>(),
             Contains("Not graded on this machine (not counted, not lost)") &&
                 Contains("- `gpu_speedup` (10 points): no CUDA GPU on this machine"));
  // Inconclusive: labelled in its name, tags and output.
  const auto& inconclusive = test_named(doc, "speedup_processes (inconclusive: re-run)");
  CHECK(inconclusive.at("tags") == nlohmann::json::array({"performance", "inconclusive"}));
  CHECK(inconclusive.at("max_score") == 0);
  CHECK(inconclusive.at("score") == 0);
  CHECK_THAT(inconclusive.at("output").get<std::string>(), Contains("**Inconclusive** (machine busy; 0 of 0 points)"));
  CHECK_FALSE(inconclusive.contains("status"));
}

TEST_CASE("gradescope: a reference that fails on the machine costs nothing and says so", "[report][gradescope]") {
  GradeResult r = sample_grade_result();
  for (TestResult& t : r.tests) {
    if (t.status != TestStatus::inconclusive) continue;
    t.message = "inconclusive: the reference baseline (reference:serial) failed on this machine (timeout)";
  }
  const nlohmann::json doc = gradescope_json(r);
  const auto& t = test_named(doc, "speedup_processes (inconclusive: re-run)");
  CHECK(t.at("score") == 0);
  CHECK(t.at("max_score") == 0);
  CHECK_FALSE(t.contains("status"));
  CHECK_THAT(t.at("output").get<std::string>(),
             Contains("**Inconclusive** (the reference failed on this machine; 0 of 0 points)"));
}

TEST_CASE("gradescope output teaches the failure and shows build errors", "[report][gradescope]") {
  const nlohmann::json doc = gradescope_json(sample_grade_result());
  CHECK_THAT(test_named(doc, "correctness_fresh").at("output").get<std::string>(),
             Contains("First mismatch: file_mean\\[17\\] (sensors_017.csv): expected 20.5, got NaN"));
  CHECK_THAT(doc.at("output").get<std::string>(),
             Contains("GPU tests not graded here") &&
                 Contains("Total: 15.33 / 80 graded here (100 in all)"));

  const nlohmann::json failed = gradescope_json(sample_build_failed_result());
  CHECK(failed.at("score") == 0);
  CHECK_THAT(failed.at("output").get<std::string>(),
             Contains("Build FAILED") &&
                 Contains("file_stats.cpp:42:7: error: 'count' was not declared in this scope"));
}

TEST_CASE("gradescope leaderboard: the ratios of the tests the lab names", "[report][gradescope]") {
  GradeResult r = sample_grade_result();
  CHECK_FALSE(gradescope_json(r).contains("leaderboard"));
  ReportOptions options;
  options.leaderboard = {"speedup_parallel", "speedup_processes"};  // the second is inconclusive
  const nlohmann::json doc = nlohmann::json::parse(make_reporter("gradescope", options)->render(r));
  REQUIRE(doc.at("leaderboard").size() == 1);
  CHECK(doc.at("leaderboard").at(0).at("name") == "speedup_parallel");
  CHECK(doc.at("leaderboard").at(0).at("value") == Approx(1.42));
  CHECK(doc.at("leaderboard").at(0).at("order") == "desc");
}
