#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "report/report_text.hpp"

using namespace parlab::grader;
using namespace parlab::grader::report_text;

TEST_CASE("points show up to two decimals without trailing zeros", "[report][text]") {
  CHECK(format_points(37.5) == "37.5");
  CHECK(format_points(100) == "100");
  CHECK(format_points(10.0 / 3) == "3.33");
  CHECK(format_points(2.005000001) == "2.01");
  CHECK(format_points(-0.0001) == "0");
  CHECK(format_points(0) == "0");
}

TEST_CASE("values use %.6g and name non-finite numbers", "[report][text]") {
  CHECK(format_value(20.5) == "20.5");
  CHECK(format_value(1234567.0) == "1.23457e+06");
  CHECK(format_value(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(format_value(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("ratios show the median and the spread", "[report][text]") {
  Measurement m;
  m.median_ratio = 1.4249;
  m.spread = 0.0612;
  CHECK(format_ratio(m) == "1.42x \xC2\xB1" "6%");
  m.spread = 0.004;
  CHECK(format_ratio(m) == "1.42x \xC2\xB1" "0.4%");
}

TEST_CASE("diagnostics read like compiler output", "[report][text]") {
  CHECK(diagnostic_line({"a.cpp", 3, 9, "error", "boom"}) == "a.cpp:3:9: error: boom");
  CHECK(diagnostic_line({"a.cpp", 3, 0, "note", "here"}) == "a.cpp:3: note: here");
  CHECK(diagnostic_line({"ld", 0, 0, "error", "undefined reference"}) == "ld: error: undefined reference");
}

TEST_CASE("invalid UTF-8 becomes U+FFFD, valid text is kept", "[report][text]") {
  CHECK(valid_utf8("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(valid_utf8("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
  CHECK(valid_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  CHECK(valid_utf8("\xC3") == "\xEF\xBF\xBD");  // truncated sequence
  CHECK(valid_utf8("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");
}

TEST_CASE("printable shows control characters and drops trailing newlines", "[report][text]") {
  CHECK(printable("ok\tline\r\nnext\n\n") == "ok\tline\nnext");
  CHECK(printable("\x1b[31mred") == "\\x1b[31mred");
  CHECK(printable("c1 \xC2\x9B here") == "c1 \\u009b here");
  CHECK(printable("\xC2\xB1 stays") == "\xC2\xB1 stays");
}

TEST_CASE("first line is fitted to a width by code points", "[report][text]") {
  CHECK(first_line_fitted("short", 10) == "short");
  CHECK(first_line_fitted("exactly ten", 11) == "exactly ten");
  CHECK(first_line_fitted("a longer message here", 10) == "a longe...");
  CHECK(first_line_fitted("line one\nline two", 40) == "line one...");
  CHECK(first_line_fitted("\xC2\xB1\xC2\xB1\xC2\xB1\xC2\xB1\xC2\xB1", 4) == "\xC2\xB1...");
}

TEST_CASE("hidden tests only tell how the run ended", "[report][text]") {
  TestResult t;
  t.visibility = Visibility::hidden;
  t.status = TestStatus::failed;
  t.outcome = RunOutcome::timeout;
  t.mismatch = Mismatch{.array = "x", .index = 1, .label = "", .expected = 2, .got = 3, .tolerance = "", .mismatches = 1, .compared = 1};
  t.stderr_tail = "secret";
  t.dataset = "secret-dataset";
  const TestDetails d = test_details(t, true);
  REQUIRE(d.facts.size() == 2);
  CHECK(d.facts[0] == "Run: ran past the wall-clock time limit and was stopped");
  CHECK(d.stderr_tail.empty());
}

TEST_CASE("tests --only left out are said as such, and the next step names the whole lab's grading",
          "[report][text]") {
  GradeResult r;
  r.lab_id = "lab03";
  r.build.ok = true;
  r.device.mode = DeviceMode::sim;  // else sim mode's "need a GPU" would be said
  TestResult graded;
  graded.name = "vector_add";
  graded.status = TestStatus::passed;
  TestResult left_out;
  left_out.name = "saxpy";
  left_out.status = TestStatus::not_graded;
  left_out.message = std::string(kNotSelectedMessage);
  r.tests = {graded, left_out};
  CHECK(not_graded_reason(r, left_out) == "not selected (--only)");
  CHECK(next_step(r) == "nothing to fix in the tests graded; for the whole lab: grade lab03 without --only");
}

TEST_CASE("a link error's next step names the symbol, not the file that called it", "[report][text]") {
  GradeResult r;
  r.lab_id = "lab01";
  r.build.ok = false;
  Diagnostic d;
  d.file = "driver.cpp";  // the lab's driver calls what the student never wrote
  d.severity = "error";
  d.message = "undefined reference to `compute_file_stats(std::string const&)'";
  r.build.diagnostics.push_back(d);
  CHECK(next_step(r) == "write the missing definition (undefined reference to "
                        "`compute_file_stats(std::string const&)'), then run grade lab01 again");
  r.build.diagnostics[0].message = "multiple definition of `helper()'; a.o:a.cpp:9: first defined here";
  CHECK(next_step(r) == "keep one definition of `helper()', then run grade lab01 again");
  r.build.diagnostics[0].file = "/home/s/file_stats.cpp";
  r.build.diagnostics[0].line = 12;
  r.build.diagnostics[0].message = "expected ';' before 'return'";
  CHECK(next_step(r) == "fix the build error in file_stats.cpp:12, then run grade lab01 again");
}

TEST_CASE("a counter check shows its figure against its band, not a speed ratio", "[report][text]") {
  GradeResult r;
  r.lab_id = "lab05";
  r.build.ok = true;
  TestResult t;
  t.name = "data reuse";
  t.kind = TestKind::performance;
  t.status = TestStatus::partial;
  t.outcome = RunOutcome::ok;
  t.points = 4;
  t.max_points = 10;
  Measurement m;
  m.counter = CounterMeasurement{.counter = "global_loads_per_output",
                                 .what = "global loads per output element",
                                 .value = 515.5,
                                 .reference = 128.9,
                                 .ratio = 4.0,
                                 .full_at = 2.0,
                                 .zero_at = 8.0};
  t.measurement = m;
  r.tests.push_back(t);
  CHECK(short_reason(r, t) == "515.5 (4x the reference's; full at 2x, none at 8x)");
  CHECK(format_ratio(m) == short_reason(r, t));
  CHECK(next_step(r) == "lower global loads per output element in data reuse: 4x the reference's now, "
                        "full credit at 2x");
  const TestDetails details = test_details(t, false);
  REQUIRE(details.facts.size() == 1);
  CHECK(details.facts[0] == "Simulator counter: global loads per output element 515.5, the reference's "
                            "128.9 on the same data (4x); full credit at 2x or less, none at 8x or more");
}
