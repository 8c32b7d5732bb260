// OutputWriter -> read_outputs round trip, and the writer's own checks.
#include "parlab/harness/arrays.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_files.hpp"

using namespace parlab::harness;
using parlab::test::TempDir;

namespace {

const NamedArray& find(const std::vector<NamedArray>& arrays, const std::string& name) {
  for (const auto& a : arrays) {
    if (a.name == name) return a;
  }
  FAIL("no array " << name);
  throw;
}

}  // namespace

TEST_CASE("arrays: dtype names and sizes", "[arrays]") {
  CHECK(std::string(dtype_name(DType::f32)) == "f32");
  CHECK(std::string(dtype_name(DType::i64)) == "i64");
  CHECK(dtype_size(DType::f32) == 4);
  CHECK(dtype_size(DType::f64) == 8);
  CHECK(dtype_size(DType::i32) == 4);
  CHECK(dtype_size(DType::i64) == 8);
}

TEST_CASE("arrays: every dtype round-trips with its labels", "[arrays]") {
  TempDir dir;
  const std::vector<double> f64 = {1.5, -0.0, 1e300, std::numeric_limits<double>::quiet_NaN()};
  const std::vector<float> f32 = {0.1f, -3.25f};
  const std::vector<std::int64_t> i64 = {0, -1, (std::int64_t{1} << 52) + 1};
  const std::vector<std::int32_t> i32 = {7, std::numeric_limits<std::int32_t>::min()};
  const std::vector<std::int64_t> big_i64 = {(std::int64_t{1} << 53) + 1, std::int64_t{1} << 53};
  {
    OutputWriter out(dir.path() / "out");
    out.write("f64", std::span<const double>(f64), {"a", "b", "c", "d"});
    out.write("f32", std::span<const float>(f32));
    out.write("i64", std::span<const std::int64_t>(i64), {"x", "y", "z"});
    out.write("i32", std::span<const std::int32_t>(i32));
    out.write("i64_big", std::span<const std::int64_t>(big_i64));
    out.write("empty", std::span<const double>());
    out.finish();
  }
  const auto arrays = read_outputs(dir.path() / "out");
  REQUIRE(arrays.size() == 6);
  CHECK(arrays[0].name == "f64");  // manifest order is write order

  const NamedArray& a = find(arrays, "f64");
  CHECK(a.dtype == DType::f64);
  REQUIRE(a.values.size() == 4);
  CHECK(a.values[0] == 1.5);
  CHECK(std::signbit(a.values[1]));
  CHECK(a.values[2] == 1e300);
  CHECK(std::isnan(a.values[3]));
  CHECK(a.labels == std::vector<std::string>{"a", "b", "c", "d"});

  const NamedArray& b = find(arrays, "f32");
  CHECK(b.dtype == DType::f32);
  CHECK(b.values == std::vector<double>{double(0.1f), -3.25});
  CHECK(b.labels.empty());

  const NamedArray& c = find(arrays, "i64");
  CHECK(c.dtype == DType::i64);
  CHECK(c.values == std::vector<double>{0, -1, double((std::int64_t{1} << 52) + 1)});
  CHECK(c.labels == std::vector<std::string>{"x", "y", "z"});
  CHECK(c.integers == i64);  // exact values kept beside the doubles

  const NamedArray& big = find(arrays, "i64_big");
  CHECK(big.integers == big_i64);  // 2^53 + 1 is not a double: only integers keep it
  CHECK(big.values[0] == big.values[1]);

  const NamedArray& d = find(arrays, "i32");
  CHECK(d.dtype == DType::i32);
  CHECK(d.values == std::vector<double>{7, -2147483648.0});
  CHECK(d.integers == std::vector<std::int64_t>{7, -2147483648});
  CHECK(a.integers.empty());  // floats have no integer copy

  CHECK(find(arrays, "empty").values.empty());
}

TEST_CASE("arrays: files are raw little-endian elements", "[arrays]") {
  TempDir dir;
  OutputWriter out(dir.path());
  const std::vector<std::int32_t> v = {0x01020304};
  out.write("v", std::span<const std::int32_t>(v));
  out.finish();
  CHECK(parlab::test::read_text(dir / "v.bin") == std::string("\x04\x03\x02\x01", 4));
}

TEST_CASE("arrays: the writer rejects misuse", "[arrays]") {
  TempDir dir;
  OutputWriter out(dir.path());
  const std::vector<double> v = {1, 2};
  CHECK_THROWS_AS(out.write("../x", std::span<const double>(v)), std::invalid_argument);
  CHECK_THROWS_AS(out.write("a b", std::span<const double>(v)), std::invalid_argument);
  CHECK_THROWS_AS(out.write("", std::span<const double>(v)), std::invalid_argument);
  CHECK_THROWS_AS(out.write("v", std::span<const double>(v), {"only one"}), std::invalid_argument);
  out.write("v", std::span<const double>(v));
  CHECK_THROWS_AS(out.write("v", std::span<const double>(v)), std::invalid_argument);
}
