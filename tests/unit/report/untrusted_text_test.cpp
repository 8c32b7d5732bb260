// Submission text is data in every format: terminal control sequences (OSC 52
// clipboard writes, screen clears, the 8-bit CSI) come out escaped, and a line that
// would be a Markdown heading stays inside a code block.
#include <catch2/catch.hpp>

#include <algorithm>

#include "report/reporter.hpp"
#include "report/untrusted_text.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

namespace {

// What a hostile submission puts in its status.json message and on stderr.
const std::string kHostile =
    "boom \x1b]52;c;cm0gLXJmIH4=\a then \x1b[2J cleared \x9b" "31m csi8 \xC2\x9b c1 "
    "rlo \xE2\x80\xAE" "06/06 ssap\n"
    "# PASS 100/100\n";

bool has_raw_controls(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F || c == 0x9B;
  }) || s.find("\xC2\x9b") != std::string::npos || s.find("\xE2\x80\xAE") != std::string::npos;
}

GradeResult hostile_result() {
  GradeResult r = sample_grade_result();
  for (TestResult& t : r.tests) {
    if (t.visibility == Visibility::hidden) continue;
    if (t.name == "correctness_large" || t.status == TestStatus::failed) {
      t.message = "the program reported an error: " + kHostile;
      t.stderr_tail = kHostile;
      if (t.mismatch) t.mismatch->label = "x\x1b[2J\n# PASS 100/100";
    }
  }
  r.build.diagnostics.push_back({"file_stats.cpp", 3, 1, "warning", "#warning \x1b]0;pwned\a"});
  return r;
}

}  // namespace

TEST_CASE("escape_controls shows C0, DEL, C1 and invalid UTF-8 escaped", "[report][untrusted]") {
  using untrusted_text::escape_controls;
  CHECK(escape_controls("a\x1b[2Jb") == "a\\x1b[2Jb");
  CHECK(escape_controls("\x1b]52;c;QQ==\a") == "\\x1b]52;c;QQ==\\x07");
  CHECK(escape_controls("raw \x9b csi") == "raw \\x9b csi");
  CHECK(escape_controls("c1 \xC2\x9b csi") == "c1 \\u009b csi");
  CHECK(escape_controls("del\x7f") == "del\\x7f");
  CHECK(escape_controls("keep\ttab\nand line\r\n") == "keep\ttab\nand line\n");
  CHECK(escape_controls("lone\rCR") == "lone\\x0dCR");
  CHECK(escape_controls("caf\xC3\xA9 \xC2\xB1 \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xC2\xB1 \xF0\x9F\x98\x80");
  CHECK(escape_controls("\xED\xA0\x80") == "\\xed\\xa0\\x80");  // a surrogate is not UTF-8
  // Idempotent: escaping escaped text changes nothing.
  const std::string once = escape_controls(kHostile);
  CHECK(escape_controls(once) == once);
  CHECK_FALSE(has_raw_controls(once));
}

TEST_CASE("escape_controls shows every bidirectional control escaped", "[report][untrusted]") {
  // U+202A..U+202E (embeddings, overrides), U+2066..U+2069 (isolates), U+200E/F, U+061C.
  const std::pair<const char*, const char*> cases[] = {
      {"\xE2\x80\xAA", "\\u202a"}, {"\xE2\x80\xAB", "\\u202b"}, {"\xE2\x80\xAC", "\\u202c"},
      {"\xE2\x80\xAD", "\\u202d"}, {"\xE2\x80\xAE", "\\u202e"}, {"\xE2\x81\xA6", "\\u2066"},
      {"\xE2\x81\xA7", "\\u2067"}, {"\xE2\x81\xA8", "\\u2068"}, {"\xE2\x81\xA9", "\\u2069"},
      {"\xE2\x80\x8E", "\\u200e"}, {"\xE2\x80\x8F", "\\u200f"}, {"\xD8\x9C", "\\u061c"}};
  for (const auto& [raw, shown] : cases) {
    CAPTURE(shown);
    CHECK(untrusted_text::escape_controls(std::string("a") + raw + "b") == std::string("a") + shown + "b");
  }
  // Neighbours that are not controls stay as they are.
  CHECK(untrusted_text::escape_controls("\xE2\x80\x94 \xE2\x80\xAF \xC3\xA9") == "\xE2\x80\x94 \xE2\x80\xAF \xC3\xA9");
}

TEST_CASE("escape_line keeps one line", "[report][untrusted]") {
  CHECK(untrusted_text::escape_line("a\nb\tc") == "a\\nb\\tc");
}

TEST_CASE("a Markdown code block's fence outgrows any backtick run inside",
          "[report][untrusted]") {
  const std::string block = untrusted_text::markdown_code_block("x ````` y\n```\n");
  CHECK(block.rfind("``````text\n", 0) == 0);
  CHECK(block.substr(block.size() - 7) == "``````\n");
  CHECK(untrusted_text::markdown_code_block("plain") == "```text\nplain\n```\n");
}

TEST_CASE("hostile submission text comes out escaped in every format", "[report][untrusted]") {
  const GradeResult r = hostile_result();
  for (std::string_view format : reporter_names()) {
    // JSON is the canonical data, not a view: it keeps the bytes (JSON-escaped).
    if (format == "json") continue;
    CAPTURE(format);
    for (bool verbose : {false, true}) {
      const std::string out = make_reporter(format, {false, verbose})->render(r);
      CHECK_FALSE(has_raw_controls(out));
      CHECK_THAT(out, Contains("x1b]52;c;cm0gLXJmIH4="));  // shown, as text
      CHECK_THAT(out, Contains("x1b[2J"));
      CHECK_THAT(out, Contains("x9b"));
      CHECK_THAT(out, Contains("u202e06/06 ssap"));  // the override shown, not obeyed
    }
  }
}

TEST_CASE("console colors stay, but student text cannot add its own", "[report][untrusted]") {
  const std::string out = make_reporter("console", {true, false})->render(hostile_result());
  CHECK_THAT(out, Contains("\x1b[1m"));  // the grader's own paint
  CHECK(out.find("\x1b]") == std::string::npos);
  CHECK(out.find("\x1b[2J") == std::string::npos);
}

TEST_CASE("a '# PASS' line in submission text is never a Markdown heading",
          "[report][untrusted]") {
  for (bool verbose : {false, true}) {
    const std::string md = make_reporter("markdown", {false, verbose})->render(hostile_result());
    // Every line starting with "# " is the report's own title, and there is one.
    std::size_t headings = 0;
    std::size_t at = 0;
    bool in_fence = false;
    std::string fence;
    while (at < md.size()) {
      std::size_t end = md.find('\n', at);
      if (end == std::string::npos) end = md.size();
      const std::string line = md.substr(at, end - at);
      if (!in_fence && line.rfind("```", 0) == 0) {
        in_fence = true;
        fence = line.substr(0, line.find_first_not_of('`'));
      } else if (in_fence && line == fence) {
        in_fence = false;
      } else if (!in_fence && line.rfind("# ", 0) == 0) {
        ++headings;
        CHECK(line.find("PASS") == std::string::npos);
      }
      at = end + 1;
    }
    CHECK(headings == 1);
    CHECK_FALSE(in_fence);
    CHECK_THAT(md, Contains("# PASS 100/100"));  // shown, inside a code block
  }
}
