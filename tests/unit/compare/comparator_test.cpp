#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "compare/comparator.hpp"

using namespace parlab::grader;
using parlab::harness::DType;
using parlab::harness::NamedArray;

namespace {
ComparatorSpec tolerance(double rtol, double atol) {
  ComparatorSpec c;
  c.kind = ComparatorSpec::Kind::tolerance;
  c.rtol = rtol;
  c.atol = atol;
  return c;
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("NaN never passes, whatever the comparator", "[compare]") {
  ComparatorSpec loose = tolerance(1e9, 1e9);
  CHECK_FALSE(values_match(1.0, kNaN, loose, DType::f64, false));
  CHECK_FALSE(values_match(kNaN, kNaN, loose, DType::f64, false));
  CHECK_FALSE(values_match(kNaN, kNaN, loose, DType::f64, true));
  ComparatorSpec ulp;
  ulp.kind = ComparatorSpec::Kind::ulp;
  ulp.max_ulp = 1 << 30;
  CHECK_FALSE(values_match(kNaN, kNaN, ulp, DType::f32, false));
}

TEST_CASE("infinities match only the same infinity", "[compare]") {
  ComparatorSpec loose = tolerance(1e9, 1e9);
  CHECK(values_match(kInf, kInf, loose, DType::f64, false));
  CHECK(values_match(-kInf, -kInf, loose, DType::f64, false));
  CHECK_FALSE(values_match(kInf, -kInf, loose, DType::f64, false));
  CHECK_FALSE(values_match(kInf, 1e308, loose, DType::f64, false));
  CHECK_FALSE(values_match(1e308, kInf, loose, DType::f64, false));
}

TEST_CASE("negative zero equals zero in every mode", "[compare]") {
  ComparatorSpec exact;
  exact.kind = ComparatorSpec::Kind::exact;
  CHECK(values_match(0.0, -0.0, exact, DType::f64, false));
  CHECK(ulp_distance(0.0, -0.0, DType::f64) == 0);
  CHECK(ulp_distance(0.0, -0.0, DType::f32) == 0);
}

TEST_CASE("relative plus absolute tolerance", "[compare]") {
  ComparatorSpec c = tolerance(1e-6, 1e-9);
  CHECK(values_match(1000.0, 1000.0009, c, DType::f64, false));
  CHECK_FALSE(values_match(1000.0, 1000.0011, c, DType::f64, false));
  CHECK(values_match(0.0, 5e-10, c, DType::f64, false));   // atol near zero
  CHECK_FALSE(values_match(0.0, 2e-9, c, DType::f64, false));
  CHECK_FALSE(values_match(1.0, 1.0 + 1e-12, c, DType::f64, true));  // exact override
}

TEST_CASE("ULP distance counts representable values between", "[compare]") {
  float one = 1.0f;
  float next = std::nextafter(one, 2.0f);
  float next2 = std::nextafter(next, 2.0f);
  CHECK(ulp_distance(one, next, DType::f32) == 1);
  CHECK(ulp_distance(one, next2, DType::f32) == 2);
  CHECK(ulp_distance(1.0, std::nextafter(1.0, 2.0), DType::f64) == 1);
  // across zero: smallest denormals on both sides are 2 apart
  float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(ulp_distance(tiny, -tiny, DType::f32) == 2);
  ComparatorSpec c;
  c.kind = ComparatorSpec::Kind::ulp;
  c.max_ulp = 1;
  CHECK(values_match(one, next, c, DType::f32, false));
  CHECK_FALSE(values_match(one, next2, c, DType::f32, false));
}

TEST_CASE("compare_outputs reports the first mismatch with index and label", "[compare]") {
  NamedArray e{"file_mean", DType::f64, {1.0, 2.0, 3.0, 4.0}, {"a.csv", "b.csv", "c.csv", "d.csv"}};
  NamedArray g = e;
  g.values[2] = 3.5;
  g.values[3] = kNaN;
  CompareOutcome out = compare_outputs({e}, {g}, tolerance(1e-9, 0));
  CHECK_FALSE(out.ok);
  REQUIRE(out.mismatch);
  CHECK(out.mismatch->array == "file_mean");
  CHECK(out.mismatch->index == 2);
  CHECK(out.mismatch->label == "c.csv");
  CHECK(out.mismatch->expected == 3.0);
  CHECK(out.mismatch->got == 3.5);
  CHECK(out.mismatch->mismatches == 2);
  CHECK(out.mismatch->compared == 4);
  CHECK_THAT(out.message, Catch::Contains("file_mean[2] (c.csv): expected 3, got 3.5"));
  CHECK_THAT(out.message, Catch::Contains("2 of 4 elements differ"));
}

TEST_CASE("compare_outputs names missing arrays and wrong sizes", "[compare]") {
  NamedArray e{"rows", DType::i64, {1, 2}, {}};
  NamedArray wrong_size{"rows", DType::i64, {1}, {}};
  CHECK_THAT(compare_outputs({e}, {}, tolerance(0, 0)).message,
             Catch::Contains("output 'rows' is missing"));
  CHECK_THAT(compare_outputs({e}, {wrong_size}, tolerance(0, 0)).message,
             Catch::Contains("'rows' has 1 elements, expected 2"));
  CHECK(compare_outputs({e}, {e}, tolerance(0, 0)).ok);
}

TEST_CASE("exact integer outputs are compared as integers, above 2^53 too", "[compare]") {
  auto ints = [](std::vector<std::int64_t> v) {
    NamedArray a;
    a.name = "count";
    a.dtype = DType::i64;
    for (std::int64_t x : v) a.values.push_back(static_cast<double>(x));
    a.integers = std::move(v);
    return a;
  };
  const std::int64_t big = (std::int64_t{1} << 53) + 1;  // rounds to 2^53 as a double
  ComparatorSpec exact;
  exact.kind = ComparatorSpec::Kind::exact;
  const CompareOutcome off_by_one = compare_outputs({ints({7, big})}, {ints({7, big - 1})}, exact);
  CHECK_FALSE(off_by_one.ok);
  // The message shows both exact values, not the same rounded double twice.
  CHECK(off_by_one.message.find("expected 9007199254740993, got 9007199254740992") !=
        std::string::npos);
  CHECK(compare_outputs({ints({7, big})}, {ints({7, big})}, exact).ok);

  ComparatorSpec loose = tolerance(1e-3, 0);  // exact only for the arrays listed exact
  loose.exact_arrays = {"count"};
  CHECK_FALSE(compare_outputs({ints({big})}, {ints({big - 1})}, loose).ok);
}
