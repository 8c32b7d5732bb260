// `grade LAB --only TEST`: the tests named run, with the correctness tests their speed
// needs; a wrong name is refused naming the lab's tests.
#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "grading/test_selection.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;

namespace {

TestSpec test(std::string name, TestKind kind, std::string task) {
  TestSpec t;
  t.name = std::move(name);
  t.kind = kind;
  t.task = std::move(task);
  if (kind == TestKind::performance) t.performance = PerformanceSpec{};
  return t;
}

LabSpec lab() {
  LabSpec lab;
  lab.id = "labx";
  lab.tests = {test("sum", TestKind::correctness, "sum"), test("scan", TestKind::correctness, "scan"),
               test("workers reaped", TestKind::correctness, "sum"),
               test("sum speedup", TestKind::performance, "sum"),
               test("scan speedup", TestKind::performance, "scan")};
  return lab;
}

std::string usage_error(const std::vector<std::string>& only, bool performance = true) {
  try {
    select_tests(lab(), only, performance);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("selection: a correctness test named runs alone", "[selection]") {
  const TestSelection s = select_tests(lab(), {"scan"}, true);
  CHECK(s.asked == std::vector<std::string>{"scan"});
  CHECK(s.added.empty());
  CHECK(s.selects("scan"));
  CHECK_FALSE(s.selects("sum"));
  CHECK_FALSE(s.selects("scan speedup"));
}

TEST_CASE("selection: a performance test brings the correctness tests of its task", "[selection]") {
  const TestSelection s = select_tests(lab(), {"sum speedup"}, true);
  CHECK(s.asked == std::vector<std::string>{"sum speedup"});
  CHECK(s.added == std::vector<std::string>{"sum", "workers reaped"});
  CHECK_FALSE(s.selects("scan"));
  CHECK_FALSE(s.selects("scan speedup"));
  // A gate also named is asked, not added.
  const TestSelection both = select_tests(lab(), {"sum speedup", "sum"}, true);
  CHECK(both.asked == std::vector<std::string>{"sum", "sum speedup"});
  CHECK(both.added == std::vector<std::string>{"workers reaped"});
}

TEST_CASE("selection: a test's own `requires` are its gates", "[selection]") {
  LabSpec l = lab();
  l.tests[4].requires_tests = {"sum"};
  const TestSelection s = select_tests(l, {"scan speedup"}, true);
  CHECK(s.added == std::vector<std::string>{"sum"});
  CHECK_FALSE(s.selects("scan"));
}

TEST_CASE("selection: the note names what ran and why", "[selection]") {
  const std::string note = selection_note(select_tests(lab(), {"sum speedup"}, true));
  CHECK_THAT(note, Contains("--only"));
  CHECK_THAT(note, Contains("'sum speedup'"));
  CHECK_THAT(note, Contains("'sum', 'workers reaped'"));
  TestResult left_out;
  left_out.status = TestStatus::passed;
  const TestResult r = not_selected_result(left_out);
  CHECK(r.status == TestStatus::not_graded);
  CHECK_THAT(r.message, Contains("not selected (--only)"));
}

TEST_CASE("selection: a name the lab has not is refused, listing the lab's tests", "[selection]") {
  const std::string e = usage_error({"Sum"});
  CHECK_THAT(e, Contains("--only 'Sum'"));
  CHECK_THAT(e, Contains("labx has no test of that name"));
  CHECK_THAT(e, Contains("'sum', 'scan', 'workers reaped', 'sum speedup', 'scan speedup'"));
  CHECK_THAT(usage_error({"sum speedup"}, false), Contains("--no-perf measures none"));
  CHECK(usage_error({"sum"}, false) == "(no error)");
}
