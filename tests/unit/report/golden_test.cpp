#include <catch2/catch.hpp>

#include <string>

#include "golden_files.hpp"
#include "report/reporter.hpp"
#include "result/result_json.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;

namespace {

struct GoldenCase {
  const char* format;
  ReportOptions options;
  bool build_failed;
  const char* file_name;
};

const GoldenCase kGoldenCases[] = {
    {"console", {}, false, "console.txt"},
    {"console", {.color = true}, false, "console_color.txt"},
    {"console", {.verbose = true}, false, "console_verbose.txt"},
    {"console", {}, true, "console_build_failed.txt"},
    {"json", {}, false, "json.json"},
    {"json", {}, true, "json_build_failed.json"},
    {"gradescope", {}, false, "gradescope.json"},
    {"gradescope", {}, true, "gradescope_build_failed.json"},
    {"junit", {}, false, "junit.xml"},
    {"junit", {}, true, "junit_build_failed.xml"},
    {"markdown", {}, false, "markdown.md"},
    {"markdown", {.verbose = true}, false, "markdown_verbose.md"},
    {"markdown", {}, true, "markdown_build_failed.md"},
    {"html", {}, false, "html.html"},
    {"html", {}, true, "html_build_failed.html"},
};

GradeResult sample(bool build_failed) {
  return build_failed ? sample_build_failed_result() : sample_grade_result();
}

}  // namespace

TEST_CASE("every report format matches its golden file", "[report][golden]") {
  for (const GoldenCase& c : kGoldenCases) {
    SECTION(c.file_name) {
      // Rendered from the JSON form, as DESIGN says every format is derived from it.
      const GradeResult from_json = grade_result_from_json(to_json(sample(c.build_failed)));
      check_golden(c.file_name, make_reporter(c.format, c.options)->render(from_json));
    }
  }
}

TEST_CASE("rendering from the JSON form equals rendering from the struct", "[report][golden]") {
  for (const GoldenCase& c : kGoldenCases) {
    INFO(c.file_name);
    const GradeResult original = sample(c.build_failed);
    const auto reporter = make_reporter(c.format, c.options);
    CHECK(reporter->render(original) == reporter->render(grade_result_from_json(to_json(original))));
  }
}

TEST_CASE("every format has a golden file", "[report][golden]") {
  for (std::string_view name : reporter_names()) {
    bool covered = false;
    for (const GoldenCase& c : kGoldenCases) covered = covered || name == c.format;
    CHECK(covered);
  }
}
