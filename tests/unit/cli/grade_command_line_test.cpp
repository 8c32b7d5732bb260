// `grade LAB ...` read into options without touching files, environment or terminal:
// each flag checked, the report --flags and their help taken from the reporters' table.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "cli/grade_command_line.hpp"
#include "core/errors.hpp"
#include "report/reporter.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;

namespace {

GradeCommandLine parse(std::vector<std::string> args) {
  return parse_grade_command_line("lab01", args);
}

std::string usage_error(std::vector<std::string> args) {
  try {
    parse(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("no arguments: the skeleton, every check on, auto sandbox", "[cli][grade_command_line]") {
  const GradeCommandLine c = parse({});
  CHECK_FALSE(c.help);
  CHECK(c.lab_id == "lab01");
  CHECK_FALSE(c.submission);
  CHECK(c.performance);
  CHECK(c.device == DeviceRequest::automatic);
  CHECK(c.sandbox_level == "auto");
  CHECK(c.color == "auto");
  CHECK(c.report_files.empty());
}

TEST_CASE("flags and the submission folder are read", "[cli][grade_command_line]") {
  const GradeCommandLine c =
      parse({"my-lab01", "--no-perf", "--device", "sim", "--seed", "42", "--wall-limit", "3.5",
             "--work-dir", "w", "--keep-runs", "-v", "--color", "never", "--sandbox", "off"});
  CHECK(c.submission == std::optional<std::string>("my-lab01"));
  CHECK_FALSE(c.performance);
  CHECK(c.device == DeviceRequest::sim);
  CHECK(c.seed == std::optional<std::uint64_t>(42));
  CHECK(c.wall_limit == std::optional<double>(3.5));
  CHECK(c.work_dir == std::optional<std::string>("w"));
  CHECK(c.keep_runs);
  CHECK(c.verbose);
  CHECK(c.color == "never");
  CHECK(c.sandbox_level == "off");
}

TEST_CASE("every report format grade writes has its --flag, in the table's order",
          "[cli][grade_command_line]") {
  std::vector<std::string> args;
  std::vector<std::string> expected;
  for (const ReportFormat& format : report_formats()) {
    if (format.written_by_grade.empty()) continue;
    args.push_back("--" + std::string(format.name));
    args.push_back(std::string(format.name) + ".out");
    expected.push_back(std::string(format.name));
  }
  REQUIRE(expected.size() == 5);  // all but the console, which goes to stdout
  std::reverse(args.begin(), args.end());  // the order given does not matter ...
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) std::swap(args[i], args[i + 1]);
  const GradeCommandLine c = parse(args);
  std::vector<std::string> got;
  for (const ReportFile& file : c.report_files) {
    got.push_back(file.format);
    CHECK(file.path == file.format + ".out");
  }
  CHECK(got == expected);  // ... they are written in the table's
  CHECK(c.report_file("junit") == std::optional<std::string>("junit.out"));
  CHECK_FALSE(c.report_file("console"));
  CHECK_THAT(usage_error({"--console", "x"}), Contains("console"));
}

TEST_CASE("the help lists each report flag with the table's words", "[cli][grade_command_line]") {
  const std::string help = grade_command_help("lab01");
  CHECK_THAT(help, Contains("usage: grade lab01 [SUBMISSION_DIR]"));
  for (const ReportFormat& format : report_formats()) {
    if (format.written_by_grade.empty()) continue;
    CHECK_THAT(help, Contains("--" + std::string(format.name)));
    CHECK_THAT(help, Contains("write " + std::string(format.written_by_grade)));
  }
  CHECK(parse({"--help"}).help);
}

TEST_CASE("a Gradescope report asks for bubblewrap unless the sandbox is named",
          "[cli][grade_command_line]") {
  CHECK(parse({"--gradescope", "r.json"}).sandbox_level == "require");
  CHECK(parse({"--gradescope", "r.json", "--sandbox", "auto"}).sandbox_level == "auto");
  CHECK(parse({"--markdown", "r.md"}).sandbox_level == "auto");
}

TEST_CASE("the --only flag is repeatable, and never written as a Gradescope score", "[cli][grade_command_line]") {
  CHECK(parse({"--only", "parallel speedup", "--only", "single file"}).only ==
        std::vector<std::string>{"parallel speedup", "single file"});
  CHECK(parse({}).only.empty());
  CHECK_THAT(usage_error({"--only", "single file", "--gradescope", "r.json"}),
             Contains("--only grades part of the lab"));
}

TEST_CASE("bad flags are usage errors naming the flag", "[cli][grade_command_line]") {
  CHECK_THAT(usage_error({"--seed", "-5"}), Contains("--seed must be a whole number"));
  CHECK_THAT(usage_error({"--seed", "12345678901234567890"}), Contains("--seed"));
  CHECK_THAT(usage_error({"--wall-limit", "0"}), Contains("--wall-limit must be > 0"));
  CHECK_THAT(usage_error({"--device", "tpu"}), Contains("--device must be"));
  CHECK_THAT(usage_error({"--sandbox", "maybe"}), Contains("--sandbox must be"));
  CHECK_THAT(usage_error({"--color", "pink"}), Contains("--color must be auto, always or never"));
  CHECK_THAT(usage_error({"--reference", "my-lab01"}), Contains("either --reference or a SUBMISSION_DIR"));
  CHECK_THAT(usage_error({"--frobnicate"}), Contains("see grade lab01 --help"));
  CHECK_THAT(usage_error({"a", "b"}), Contains("see grade lab01 --help"));
}
