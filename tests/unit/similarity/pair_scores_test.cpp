#include <catch2/catch.hpp>

#include "similarity/pair_scores.hpp"

using namespace parlab::grader::similarity;

namespace {

SourceCopy copy_of(const std::string& path, int lines) {
  SourceCopy c;
  c.student = path;
  c.copy = path;
  for (int i = 0; i < lines; ++i) {
    c.lines.push_back("x = f(" + std::to_string(i) + ");");
    c.origins.push_back({"kernels.cu", i + 1});
  }
  return c;
}

TrackGroup group_of_three() {
  TrackGroup g;
  g.track = "cpp";
  g.base = copy_of("base", 10);
  g.submissions = {copy_of("a", 10), copy_of("b", 10), copy_of("c", 10)};
  return g;
}

}  // namespace

TEST_CASE("a pair's score is the share of its code lines in matching runs, the larger side") {
  TrackGroup g = group_of_three();
  g.submissions[1].lines.resize(5);  // b is shorter: half of a is all of b
  g.submissions[1].origins.resize(5);
  auto pairs = score_pairs(g, {{"a", 1, 5, "b", 1, 5, 40}}, {});
  REQUIRE(pairs.size() == 3);
  CHECK(pairs[0].a == 0);
  CHECK(pairs[0].b == 1);
  CHECK(pairs[0].share_a == Approx(0.5));
  CHECK(pairs[0].share_b == Approx(1.0));
  CHECK(pairs[0].score == Approx(1.0));
  CHECK(pairs[0].regions.size() == 1);
  CHECK(pairs[1].score == 0);
}

TEST_CASE("lines matching the skeleton count for no pair") {
  TrackGroup g = group_of_three();
  // a and b share lines 1-10, but 1-8 of each are the skeleton's code.
  auto pairs = score_pairs(g, {{"a", 1, 10, "b", 1, 10, 90}},
                           {{"a", 1, 8, "base", 1, 8, 30}, {"base", 1, 8, "b", 1, 8, 30}});
  CHECK(pairs[0].score == Approx(1.0));  // what is left (lines 9-10) is shared
  auto apart = score_pairs(g, {{"a", 1, 8, "b", 1, 8, 60}},
                           {{"a", 1, 8, "base", 1, 8, 30}, {"b", 1, 8, "base", 1, 8, 30}});
  CHECK(apart[0].score == 0);  // only the skeleton is shared
}

TEST_CASE("comments, blank lines and lone braces are not code lines") {
  TrackGroup g = group_of_three();
  g.submissions[0].lines = {"// header", "", "}", "#include <x>", "int y = 1;"};
  g.submissions[0].origins.resize(5);
  auto pairs = score_pairs(g, {{"a", 5, 5, "c", 1, 1, 30}}, {});
  CHECK(pairs[0].b == 2);
  CHECK(pairs[0].share_a == Approx(1.0));
}

TEST_CASE("a run naming a file the tester was not given is an error") {
  CHECK_THROWS(score_pairs(group_of_three(), {{"a", 1, 2, "zz", 1, 2, 30}}, {}));
}
