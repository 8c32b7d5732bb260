#include <catch2/catch.hpp>

#include <fstream>

#include "core/errors.hpp"
#include "scratch_dir.hpp"
#include "similarity/python_tokens.hpp"

using namespace parlab::grader;
using namespace parlab::grader::similarity;
namespace fs = std::filesystem;

namespace {

SourceCopy python_copy(const fs::path& file, const std::string& student, const std::vector<std::string>& lines) {
  SourceCopy c;
  c.student = student;
  c.copy = file;
  c.lines = lines;
  for (std::size_t i = 0; i < lines.size(); ++i) c.origins.push_back({"file_stats.py", static_cast<int>(i) + 1});
  std::ofstream out(file);
  for (const auto& l : lines) out << l << '\n';
  return c;
}

std::vector<std::string> words_of(const SourceCopy& c) {
  std::ifstream in(c.copy);
  std::vector<std::string> words;
  for (std::string w; std::getline(in, w);) words.push_back(w);
  return words;
}

}  // namespace

TEST_CASE("python copies normalise to the same words whatever the names, comments and docstrings") {
  parlab::testing::ScratchDir s;
  TrackGroup g;
  g.kind = Track::python;
  g.track = "python";
  g.base = python_copy(s.path() / "base.py", "(skeleton)", {"def f(x):", "    return x"});
  g.submissions.push_back(python_copy(s.path() / "0.py", "a",
                                      {"def mean(values):", "    \"\"\"Average.\"\"\"", "    # sum them",
                                       "    return sum(values) / len(values)"}));
  g.submissions.push_back(python_copy(s.path() / "1.py", "b",
                                      {"def avg(xs):  # mine", "", "    return sum(xs) / len(xs)"}));
  g.submissions.push_back(python_copy(s.path() / "2.py", "c", {"def bad(:", "    return 1"}));
  const auto notes = normalise_python_group(g, 60, s.path());
  const auto& a = g.submissions[0];
  const auto& b = g.submissions[1];
  CHECK(words_of(a) == words_of(b));
  CHECK(words_of(a) == std::vector<std::string>{"def", "ID", "opLPAR", "ID", "opRPAR", "opCOLON", "NEWLINE",
                                                "INDENT", "return", "sum", "opLPAR", "ID", "opRPAR", "opSLASH",
                                                "len", "opLPAR", "ID", "opRPAR", "NEWLINE", "DEDENT"});
  CHECK(a.copy.string() == (s.path() / "0.py.words").string());
  // Each word's line: the docstring and the comment are gone, the closing DEDENT sits
  // on the last line.
  CHECK(a.word_rows.front() == 1);
  CHECK(a.word_rows[8] == 4);
  CHECK(a.word_rows.back() == 4);
  CHECK(a.code_lines == std::vector<bool>{true, false, false, true});
  CHECK(b.code_lines == std::vector<bool>{true, false, true});
  // The unclosed "(" stops tokenize: still compared, with a note naming the student.
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].rfind("c: ", 0) == 0);

  std::vector<SimRun> runs{{a.copy.string(), 8, 20, b.copy.string(), 1, 20, 13}};
  map_runs_to_source(g, runs);
  CHECK(runs[0].a_first == 2);  // word 8 is the body's INDENT, where the docstring was
  CHECK(runs[0].a_last == 4);
  CHECK(runs[0].b_first == 1);
  CHECK(runs[0].b_last == 3);
}

TEST_CASE("a line map of another shape is an error, not a silent misreading") {
  SourceCopy c;
  c.lines = {"x = 1", "y = 2"};
  read_word_rows("1 c\n2 -\n", c);
  CHECK(c.word_rows == std::vector<int>{1, 2});
  CHECK(c.code_lines == std::vector<bool>{true, false});
  CHECK_THROWS_AS(read_word_rows("3 c\n", c), EnvironmentError);  // past the copy's end
  CHECK_THROWS_AS(read_word_rows("1 x\n", c), EnvironmentError);
  CHECK_THROWS_AS(read_word_rows("1 c extra\n", c), EnvironmentError);
}
