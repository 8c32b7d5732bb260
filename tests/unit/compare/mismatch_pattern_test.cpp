// The comparator names what the mismatches have in common and gives the lab's hint.
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cmath>
#include <limits>

#include "compare/comparator.hpp"
#include "compare/mismatch_pattern.hpp"

using namespace parlab::grader;
using parlab::harness::DType;
using parlab::harness::NamedArray;
using Catch::Contains;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

NamedArray array(const std::string& name, std::vector<double> values) {
  NamedArray a;
  a.name = name;
  a.dtype = DType::f64;
  a.values = std::move(values);
  return a;
}

ComparatorSpec tolerant() {
  ComparatorSpec c;
  c.kind = ComparatorSpec::Kind::tolerance;
  c.rtol = 1e-6;
  c.atol = 1e-6;
  return c;
}

bool has(const MismatchPattern& p, const std::string& kind) {
  return std::find(p.kinds.begin(), p.kinds.end(), kind) != p.kinds.end();
}
}  // namespace

TEST_CASE("the poison left in a block is 'unwritten' with its range, 0/0 is 'nan'",
          "[compare]") {
  const double poison = std::bit_cast<double>(~std::uint64_t{0});
  std::vector<double> want(100, 1.0), got(100, 1.0);
  for (int i = 75; i < 100; ++i) got[i] = poison;
  const auto p = classify_mismatches(array("y", want), array("y", got), tolerant(), false, 0);
  CHECK(p.kinds.front() == "unwritten");
  CHECK_FALSE(has(p, "nan"));
  CHECK_THAT(p.detail, Contains("elements 75..99 (25, one contiguous block) were never written"));
  got[10] = kNaN;  // a computed NaN: 0/0 somewhere
  const auto q = classify_mismatches(array("y", want), array("y", got), tolerant(), false, 0);
  CHECK_FALSE(has(q, "unwritten"));
  CHECK(q.kinds.front() == "nan");
  // A float output keeps its poison through the widening to double.
  NamedArray f = array("f", {1.0, 1.0});  // expected in f64, got in f32 (GPU labs)
  NamedArray g = f;
  g.dtype = DType::f32;
  g.values[1] = static_cast<double>(std::bit_cast<float>(0xFFFFFFFFu));
  CHECK(classify_mismatches(f, g, tolerant(), false, 0).kinds.front() == "unwritten");
}

TEST_CASE("a matrix wrong only past the last full tile is 'edge'", "[compare]") {
  const int rows = 17, cols = 17;
  std::vector<double> want(rows * cols, 2.0), got = want;
  for (int r = 0; r < rows; ++r) got[r * cols + 16] = 0;  // the last column only
  const auto p = classify_mismatches(array("c", want), array("c", got), tolerant(), false, cols);
  CHECK(has(p, "edge"));
  CHECK_THAT(p.detail, Contains("columns >= 16"));
  // A matrix narrower than every tile has no full tile to compare with: not 'edge'.
  std::vector<double> narrow(20 * 7, 1.0), narrow_got = narrow;
  narrow_got[19 * 7] = 0;
  CHECK_FALSE(has(classify_mismatches(array("c", narrow), array("c", narrow_got), tolerant(),
                                      false, 7),
                  "edge"));
  got[0] = 0;  // a wrong element inside the full tiles
  const auto q = classify_mismatches(array("c", want), array("c", got), tolerant(), false, cols);
  CHECK_FALSE(has(q, "edge"));
}

TEST_CASE("direction and closeness of the differences are kinds", "[compare]") {
  const auto larger = classify_mismatches(array("n", {1, 2, 3}), array("n", {1, 5, 4}),
                                          tolerant(), true, 0);
  CHECK(has(larger, "too_large"));
  CHECK_FALSE(has(larger, "too_small"));
  CHECK_FALSE(has(larger, "close"));  // exact arrays are never 'close'
  const auto close = classify_mismatches(array("m", {1.0, 2.0}), array("m", {1.0, 2.0 + 2e-5}),
                                         tolerant(), false, 0);
  CHECK(has(close, "close"));
  CHECK(close.kinds.back() == "any");
}

TEST_CASE("the message gives (row, col) for a matrix and the declared hint", "[compare]") {
  ComparatorSpec spec = tolerant();
  spec.outputs["c"].columns = 4;
  spec.outputs["c"].hints = {{"too_small", "count the last tile too"}, {"any", "generic"}};
  std::vector<double> want(8, 3.0), got = want;
  got[6] = 1.0;
  const CompareOutcome out = compare_outputs({array("c", want)}, {array("c", got)}, spec);
  REQUIRE_FALSE(out.ok);
  REQUIRE(out.mismatch);
  CHECK(out.mismatch->label == "row 1, col 2");
  CHECK_THAT(out.message, Contains("c[6] (row 1, col 2)"));
  CHECK_THAT(out.message, Contains("Hint: count the last tile too"));
  const CompareOutcome missing = compare_outputs({array("c", want)}, {}, spec);
  CHECK_THAT(missing.message, Contains("Hint: generic"));
}

TEST_CASE("outputs all zero or never written say 'not implemented yet?', not a cause", "[compare]") {
  ComparatorSpec spec = tolerant();
  spec.outputs["rows"].hints = {{"too_small", "strip a trailing '\\r'"}, {"any", "generic"}};
  spec.outputs["grid"].hints = {{"unwritten", "cover the grid"}, {"any", "generic"}};
  const double poison = std::bit_cast<double>(~std::uint64_t{0});
  // A skeleton: one output all zero, the other still poisoned.
  const CompareOutcome skeleton = compare_outputs(
      {array("rows", {3, 4}), array("grid", {1, 2})},
      {array("rows", {0, 0}), array("grid", {poison, poison})}, spec);
  REQUIRE_FALSE(skeleton.ok);
  CHECK_THAT(skeleton.message, Contains("Every element is 0: not implemented yet? Or a loop that never ran"));
  CHECK_THAT(skeleton.message, !Contains("Hint"));
  const CompareOutcome unwritten = compare_outputs(
      {array("grid", {1, 2}), array("rows", {3, 4})},
      {array("grid", {poison, poison}), array("rows", {0, 0})}, spec);
  CHECK_THAT(unwritten.message, Contains("never written"));
  CHECK_THAT(unwritten.message, Contains("not implemented yet?"));
  CHECK_THAT(unwritten.message, Contains("Hint: cover the grid"));
  // One output zero beside a computed one is a wrong answer with its hint.
  const CompareOutcome computed = compare_outputs(
      {array("rows", {3, 4}), array("grid", {1, 2})},
      {array("rows", {0, 0}), array("grid", {1, 2})}, spec);
  CHECK_THAT(computed.message, !Contains("not implemented"));
  CHECK_THAT(computed.message, Contains("Hint: strip a trailing '\\r'"));
  CHECK_FALSE(output_untouched(array("rows", {0, 1})));
  CHECK(output_untouched(array("rows", {0, 0})));
}

TEST_CASE("a NaN from shared memory never loaded is its own kind, not 'unwritten' or 0/0",
          "[compare]") {
  // The simulator's shared-memory poison (sim/src/lane/shared_poison.hpp), as a float
  // output carries it (its sign may flip through a negation).
  const double from_shared = static_cast<double>(std::bit_cast<float>(0x7FF5A5A5u));
  const double negated = static_cast<double>(std::bit_cast<float>(0xFFF5A5A5u));
  NamedArray want = array("c", std::vector<double>(64, 2.0));
  NamedArray got = want;
  got.dtype = DType::f32;
  for (int i = 0; i < 64; i += 2) got.values[i] = from_shared;
  got.values[1] = negated;
  ComparatorSpec spec = tolerant();
  spec.outputs["c"].hints = {{"unwritten", "cover the grid"}, {"nan", "use log-sum-exp"},
                             {"unloaded_shared", "load the tile first"}};
  const auto p = classify_mismatches(want, got, spec, false, 0);
  CHECK(p.kinds.front() == "unloaded_shared");
  CHECK_FALSE(has(p, "unwritten"));
  CHECK_FALSE(has(p, "nan"));  // not 0/0: the 0/0 hint would blame the wrong cause
  CHECK_THAT(p.detail, Contains("all 33 differing elements are NaN computed from shared memory never stored to"));
  NamedArray mixed = got;
  mixed.values[3] = 5.0;  // one plain wrong value beside them
  CHECK_THAT(classify_mismatches(want, mixed, spec, false, 0).detail,
             Contains("33 of the 34 differing elements are NaN computed from shared memory"));
  const CompareOutcome out = compare_outputs({want}, {got}, spec);
  CHECK_THAT(out.message, Contains("Hint: load the tile first"));
  CHECK_THAT(out.message, !Contains("cover the grid"));
  // A double output read from the poison bytes, quieted by arithmetic: the same kind.
  NamedArray d = array("d", {1.0});
  NamedArray e = array("d", {std::bit_cast<double>(0x7FFDA5A57FF5A5A5ull)});
  CHECK(classify_mismatches(d, e, tolerant(), false, 0).kinds.front() == "unloaded_shared");
  // The outputs' all-ones poison stays 'unwritten'; another NaN stays 'nan'.
  NamedArray u = got;
  for (double& v : u.values) v = static_cast<double>(std::bit_cast<float>(0xFFFFFFFFu));
  CHECK(classify_mismatches(want, u, tolerant(), false, 0).kinds.front() == "unwritten");
  NamedArray n = got;
  for (double& v : n.values) v = kNaN;
  CHECK(classify_mismatches(want, n, tolerant(), false, 0).kinds.front() == "nan");
}

TEST_CASE("a later output never written is said before a count computed from it", "[compare]") {
  ComparatorSpec spec = tolerant();
  spec.outputs["grid"].hints = {{"unwritten", "write every grid point"}, {"any", "generic"}};
  spec.outputs["iterations"].hints = {{"too_small", "count every step"}};
  const double poison = std::bit_cast<double>(~std::uint64_t{0});
  // The count is wrong because the grid is poison: the grid's cause is the one named.
  const CompareOutcome out = compare_outputs(
      {array("iterations", {300}), array("grid", {1, 2, 3})},
      {array("iterations", {20}), array("grid", {1, poison, poison})}, spec);
  REQUIRE_FALSE(out.ok);
  REQUIRE(out.mismatch);
  CHECK(out.mismatch->array == "grid");
  CHECK_THAT(out.message, Contains("Hint: write every grid point"));
  CHECK_THAT(out.message, !Contains("count every step"));
  CHECK_THAT(out.message, Contains("('iterations' differs too)"));
  // Both wrong without poison: the lab's order, the first array, and the other named.
  const CompareOutcome order = compare_outputs(
      {array("iterations", {300}), array("grid", {1, 2, 3})},
      {array("iterations", {20}), array("grid", {1, 2, 4})}, spec);
  CHECK(order.mismatch->array == "iterations");
  CHECK_THAT(order.message, Contains("Hint: count every step"));
  CHECK_THAT(order.message, Contains("('grid' differs too)"));
}

TEST_CASE("'not implemented yet?' is followed by its hint without a stray period", "[compare]") {
  ComparatorSpec spec = tolerant();
  spec.outputs["grid"].hints = {{"unwritten", "write the boundary too"}};
  const double poison = std::bit_cast<double>(~std::uint64_t{0});
  const CompareOutcome out =
      compare_outputs({array("grid", {1, 2})}, {array("grid", {poison, poison})}, spec);
  CHECK_THAT(out.message, Contains("not implemented yet? Hint: write the boundary too"));
  CHECK_THAT(out.message, !Contains("?."));
}

TEST_CASE("n bytes copied where n floats were meant is 'bytes_as_count'", "[compare]") {
  const double poison = std::bit_cast<double>(~std::uint64_t{0});
  auto f32 = [](std::vector<double> v) {
    NamedArray a = array("y", std::move(v));
    a.dtype = DType::f32;
    return a;
  };
  std::vector<double> want(103);
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = 1.0 + static_cast<double>(i);
  // 103 bytes: floats 0..24 whole, float 25 three bytes of it (any value), the rest poison.
  std::vector<double> got = want;
  got[25] = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 26; i < got.size(); ++i) got[i] = poison;
  const MismatchPattern p = classify_mismatches(f32(want), f32(got), tolerant(), false, 0);
  REQUIRE_FALSE(p.kinds.empty());
  CHECK(p.kinds.front() == "bytes_as_count");
  CHECK_THAT(p.detail, Contains("every one from 25 = n / 4 on differs"));
  // n a multiple of 4: all poison, still this kind first, then 'unwritten'.
  std::vector<double> want100(want.begin(), want.begin() + 100), got100 = want100;
  for (std::size_t i = 25; i < 100; ++i) got100[i] = poison;
  const MismatchPattern q = classify_mismatches(f32(want100), f32(got100), tolerant(), false, 0);
  CHECK(q.kinds.front() == "bytes_as_count");
  CHECK(has(q, "unwritten"));
  // The same tail from another index, or a computed value past it: not this kind.
  std::vector<double> got30 = want100;
  for (std::size_t i = 30; i < 100; ++i) got30[i] = poison;
  CHECK_FALSE(has(classify_mismatches(f32(want100), f32(got30), tolerant(), false, 0), "bytes_as_count"));
  got100[60] = 7.0;
  CHECK_FALSE(has(classify_mismatches(f32(want100), f32(got100), tolerant(), false, 0), "bytes_as_count"));
}

TEST_CASE("a 0 above all-negative integer results names the starting value, float zeros do not",
          "[compare]") {
  ComparatorSpec exact;
  exact.kind = ComparatorSpec::Kind::exact;
  NamedArray want = array("max", {-213406});
  want.dtype = DType::i32;
  want.integers = {-213406};
  NamedArray got = array("max", {0});
  got.dtype = DType::i32;
  got.integers = {0};
  const CompareOutcome max_from_zero = compare_outputs({want}, {got}, exact);
  REQUIRE_FALSE(max_from_zero.ok);
  CHECK_THAT(max_from_zero.message, Contains("a maximum that starts from 0 (cudaMemset(0)"));
  CHECK_THAT(max_from_zero.message, !Contains("not implemented yet"));
  // A float product whose K loop never ran is 0 too, whatever the expected sign.
  const CompareOutcome product = compare_outputs({array("c", {-0.186141})}, {array("c", {0})}, tolerant());
  CHECK_THAT(product.message, Contains("not implemented yet? Or a loop that never ran"));
  CHECK_THAT(product.message, !Contains("maximum"));
}

TEST_CASE("the expected values in other places are 'reordered', other wrong values are not",
          "[compare]") {
  const NamedArray want = array("sums", {10, 20, 30, 40, 50});
  // Two results swapped, as a pool's completion order leaves them.
  MismatchPattern p = classify_mismatches(want, array("sums", {10, 30, 20, 40, 50}), tolerant(), false, 0);
  CHECK(has(p, "reordered"));
  CHECK_THAT(p.detail, Contains("the right values in the wrong places") && Contains("2 differing") &&
                           Contains("order they finished"));
  // Within the tolerance counts as the same value.
  p = classify_mismatches(want, array("sums", {50.0000001, 20, 30, 40, 10}), tolerant(), false, 0);
  CHECK(has(p, "reordered"));
  // A value that is not among the expected ones: not a reordering.
  p = classify_mismatches(want, array("sums", {10, 30, 21, 40, 50}), tolerant(), false, 0);
  CHECK_FALSE(has(p, "reordered"));
  // A duplicate in place of another value: not a permutation.
  p = classify_mismatches(want, array("sums", {10, 20, 20, 40, 50}), tolerant(), false, 0);
  CHECK_FALSE(has(p, "reordered"));
  // Never written (poison) is 'unwritten', never 'reordered'.
  p = classify_mismatches(want, array("sums", {10, kNaN, kNaN, 40, 50}), tolerant(), false, 0);
  CHECK_FALSE(has(p, "reordered"));
}
