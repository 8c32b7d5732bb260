#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "similarity/sim_runs.hpp"

using namespace parlab::grader;
using namespace parlab::grader::similarity;
using Catch::Matchers::Contains;

TEST_CASE("sim -n output: header lines skipped, each run read with its lines and tokens") {
  const char* out =
      "File /w/cpp/0.cpp: 1102 tokens, 131 lines\n"
      "File /: new/old separator\n"
      "File /w/cpp/base.cpp: 473 tokens, 92 lines\n"
      "Total input: 2 files (1 new, 1 old), 1575 tokens\n"
      "\n"
      "/w/cpp/0.cpp: line 13-131                      |/w/cpp/1.cpp: line 2-120                [1102]\n"
      "\n"
      "/w/cpp/0.cpp: line 94-97                       |/w/cpp/base.cpp: line 70-74               [46]\n";
  auto runs = parse_sim_runs(out);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].file_a == "/w/cpp/0.cpp");
  CHECK(runs[0].a_first == 13);
  CHECK(runs[0].a_last == 131);
  CHECK(runs[0].file_b == "/w/cpp/1.cpp");
  CHECK(runs[0].b_first == 2);
  CHECK(runs[0].b_last == 120);
  CHECK(runs[0].tokens == 1102);
  CHECK(runs[1].file_b == "/w/cpp/base.cpp");
  CHECK(runs[1].tokens == 46);
}

TEST_CASE("sim_text counts words where sim_c++ counts tokens") {
  auto runs = parse_sim_runs(
      "File /w/python/0.py: 737 words, 152 lines\nTotal input: 1 files (1 new, 0 old), 737 words\n"
      "/w/python/0.py: line 3-40 |/w/python/1.py: line 5-42 [200]\n");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].b_first == 5);
}

TEST_CASE("sim output with no runs is no run, not an error") {
  CHECK(parse_sim_runs("File a.cpp: 10 tokens, 3 lines\nTotal input: 1 files (1 new, 0 old), 10 tokens\n").empty());
  CHECK(parse_sim_runs("").empty());
}

TEST_CASE("anything unexpected in sim's output is an error naming the line") {
  CHECK_THROWS_WITH(parse_sim_runs("File a.cpp: 10 tokens, 3 lines\na.cpp consists for 95 % of b.cpp material\n"),
                    Contains("line 2") && Contains("consists for 95 %"));
  CHECK_THROWS_AS(parse_sim_runs("a.cpp: line 9-3 |b.cpp: line 1-2 [30]\n"), EnvironmentError);
  CHECK_THROWS_WITH(parse_sim_runs("a.cpp: line 9-3 |b.cpp: line 1-2 [30]\n"), Contains("backwards"));
}
