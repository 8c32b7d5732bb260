#include <catch2/catch.hpp>

#include <string>

#include "report/reporter.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

TEST_CASE("markdown escapes pipes and markup in table cells", "[report][markdown]") {
  GradeResult r = sample_grade_result();
  r.tests[2].message = "a | b <script> c\nnext";
  const std::string md = make_reporter("markdown", {})->render(r);
  CHECK_THAT(md, Contains("| a \\| b &lt;script&gt; c next |"));
  // Raw only inside the details' code block, where Markdown shows it as text.
  CHECK_THAT(md, Contains("```text\na | b <script> c\nnext\n```\n"));
  CHECK(md.find("<script>") == md.find("```text\na | b <script>") + 14);
  CHECK(md.find("<script>", md.find("<script>") + 1) == std::string::npos);
}

TEST_CASE("markdown code blocks cannot be closed by student output", "[report][markdown]") {
  GradeResult r = sample_grade_result();
  r.tests[4].stderr_tail = "```\n# injected heading\n";
  const std::string md = make_reporter("markdown", {})->render(r);
  CHECK_THAT(md, Contains("````text\n```\n# injected heading\n````\n"));
}

TEST_CASE("markdown shows the summary table and the total", "[report][markdown]") {
  const std::string md = make_reporter("markdown", {})->render(sample_grade_result());
  CHECK_THAT(md, Contains("| Test | Status | Points | Ratio | Message |"));
  CHECK_THAT(md, Contains("| `speedup_parallel` | partial | 5.33 / 15 | 1.42x"));
  CHECK_THAT(md, Contains("**Total: 15.33 / 80 graded here (100 in all); 10 points not graded here "
                           "(no CUDA GPU on this machine); 10 points inconclusive (machine busy): "
                           "re-run**"));
}
