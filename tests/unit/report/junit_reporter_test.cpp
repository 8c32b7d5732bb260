#include <catch2/catch.hpp>

#include <string>

#include "report/reporter.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

TEST_CASE("junit escapes markup and shows characters XML 1.0 forbids escaped", "[report][junit]") {
  GradeResult r = sample_grade_result();
  r.tests[2].message = "a<b&c\"d'e\x01" "f>g";
  r.tests[4].stderr_tail = "tail <&> \x02 end\n";
  const std::string xml = make_reporter("junit", {})->render(r);

  CHECK_THAT(xml, Contains("message=\"a&lt;b&amp;c&quot;d&apos;e\\x01f&gt;g\""));
  CHECK(xml.find('\x01') == std::string::npos);
  CHECK(xml.find('\x02') == std::string::npos);
  CHECK(xml.find("a<b") == std::string::npos);
  CHECK_THAT(xml, Contains("<system-err>tail &lt;&amp;&gt; \\x02 end</system-err>"));
}

TEST_CASE("junit counts failures and skips and reports the build", "[report][junit]") {
  const std::string xml = make_reporter("junit", {})->render(sample_grade_result());
  // 7 tests + the build case; failed: partial, mismatch, hidden, crash; skipped: 2.
  CHECK_THAT(xml, Contains("<testsuite name=\"lab01\" tests=\"8\" failures=\"4\" errors=\"0\" "
                           "skipped=\"2\" time=\"42.700\">"));
  CHECK_THAT(xml, Contains("<testcase classname=\"parlab.lab01\" name=\"correctness_small\" "
                           "time=\"0.420\"/>"));
  CHECK_THAT(xml, Contains("<skipped message=\"not graded here (no CUDA GPU on this machine): "));
  CHECK_THAT(xml, Contains("<skipped message=\"inconclusive (machine busy: re-run (other processes "
                           "used 2.5 cores)): The machine was too busy"));
  CHECK_THAT(xml, Contains("<property name=\"graded_max_score\" value=\"80\"/>"));
  CHECK_THAT(xml, Contains("<failure message=\"The program was killed by SIGSEGV"));

  const std::string failed = make_reporter("junit", {})->render(sample_build_failed_result());
  CHECK_THAT(failed, Contains("<failure message=\"the build failed\" type=\"build\">"));
  CHECK_THAT(failed, Contains("file_stats.cpp:42:7: error: 'count' was not declared"));
}

TEST_CASE("junit output shows invalid UTF-8 escaped", "[report][junit]") {
  GradeResult r = sample_grade_result();
  r.tests[4].stderr_tail = "bad \xC3\x28 byte\n";
  const std::string xml = make_reporter("junit", {})->render(r);
  CHECK_THAT(xml, Contains("bad \\xc3( byte"));
}
