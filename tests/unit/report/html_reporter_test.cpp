#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "report/html_page.hpp"
#include "report/reporter.hpp"
#include "result/result_json.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

namespace {

std::string render_fixture(const std::string& name) {
  std::ifstream in(std::string(PARLAB_TESTS_DIR) + "/golden/results/" + name + ".json");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return make_reporter("html", {})->render(grade_result_from_json_text(text.str()));
}

}  // namespace

TEST_CASE("html is one self-contained page: no script, nothing fetched", "[report][html]") {
  for (const char* name : {"lab01_reference", "lab03_gpu_reference", "lab03_sim_reference",
                           "lab01_build_error"}) {
    const std::string page = render_fixture(name);
    INFO(name);
    CHECK(page.rfind("<!doctype html>", 0) == 0);
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("http://") == std::string::npos);
    CHECK(page.find("https://") == std::string::npos);
    CHECK(page.find(" src=") == std::string::npos);
    CHECK_THAT(page, Contains("default-src 'none'"));
  }
}

TEST_CASE("html draws each measured ratio against its band, the roofline and the phases",
          "[report][html]") {
  const std::string page = render_fixture("lab03_gpu_reference");
  CHECK_THAT(page, Contains("<svg class=\"ratio-band\""));
  CHECK_THAT(page, Contains("data-ratio=\"0.97\" data-zero=\"0.8\" data-full=\"1\""));
  CHECK_THAT(page, Contains("<svg class=\"roofline\""));
  CHECK_THAT(page, Contains("data-fraction=\"0.81\""));
  CHECK_THAT(page, Contains("<svg class=\"phases\""));
  CHECK_THAT(page, Contains("host to device: 2.1 ms"));
  CHECK_THAT(page, Contains("data-score=\"90.2\""));
}

TEST_CASE("html says what was graded here and never shows not-graded tests as failed",
          "[report][html]") {
  const std::string page = render_fixture("lab03_sim_reference");
  CHECK_THAT(page, Contains("60 / 60 graded here"));
  CHECK_THAT(page, Contains("40 points of GPU tests need a GPU"));
  CHECK_THAT(page, Contains("data-status=\"not_graded\""));
  CHECK(page.find("data-status=\"failed\"") == std::string::npos);
  const std::string reference = render_fixture("lab01_reference");
  CHECK_THAT(reference, Contains("data-status=\"inconclusive\""));
  CHECK_THAT(reference, Contains("grade lab01 --reference --seed 2718281828"));
}

TEST_CASE("html escapes submission text", "[report][html]") {
  GradeResult r = sample_grade_result();
  r.tests[4].stderr_tail = "<script>alert(1)</script>\x1b[2J\n";
  r.tests[4].message = "\"'><img src=x onerror=alert(1)>";
  const std::string page = make_reporter("html", {})->render(r);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find('\x1b') == std::string::npos);
  CHECK_THAT(page, Contains("&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J"));
  CHECK(html::escape("a&b\"'") == "a&amp;b&quot;&#39;");
}
