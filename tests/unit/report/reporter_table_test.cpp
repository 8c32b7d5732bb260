#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "report/reporter.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;

TEST_CASE("every listed format can be made and renders something", "[report][table]") {
  const auto names = reporter_names();
  REQUIRE(names.size() == 6);
  for (std::string_view name : names) {
    INFO(name);
    const auto reporter = make_reporter(name, {});
    REQUIRE(reporter != nullptr);
    CHECK_FALSE(reporter->render(testing::sample_grade_result()).empty());
    CHECK_FALSE(report_file_name(name).empty());
  }
  CHECK(report_file_name("gradescope") == "results.json");
}

TEST_CASE("an unknown format throws listing the valid ones", "[report][table]") {
  try {
    make_reporter("nope", {});
    FAIL("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Contains("'nope'"));
    for (std::string_view name : reporter_names()) CHECK_THAT(what, Contains(std::string(name)));
  }
  CHECK_THROWS_AS(report_file_name("pdf"), std::invalid_argument);
}
