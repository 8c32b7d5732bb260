// The lab05 generator: shapes, determinism, non-zero values in the declared range,
// independent A and B streams, and rejected parameters.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "generators.hpp"
#include "lab05_test_support.hpp"
#include "parlab/harness/arrays.hpp"

namespace fs = std::filesystem;
using parlab::harness::read_array;

TEST_CASE("matmul_pair writes shape, A (MxK) and B (KxN)", "[lab05][generator]") {
  const fs::path dir = lab05_test::generate("shape", 37, 53, 29, 1);
  CHECK(read_array<std::int64_t>(dir, "shape") == std::vector<std::int64_t>{37, 53, 29});
  CHECK(read_array<float>(dir, "a").size() == 37u * 29u);
  CHECK(read_array<float>(dir, "b").size() == 29u * 53u);
}

TEST_CASE("matmul_pair values are non-zero, in [0.1, 1] in magnitude, of both signs",
          "[lab05][generator]") {
  const fs::path dir = lab05_test::generate("range", 64, 64, 64, 2);
  int negative = 0;
  for (float v : read_array<float>(dir, "a")) {
    REQUIRE(std::fabs(v) >= 0.1f);
    REQUIRE(std::fabs(v) <= 1.0f);
    negative += v < 0;
  }
  CHECK(negative > 64 * 64 / 3);
  CHECK(negative < 2 * 64 * 64 / 3);
}

TEST_CASE("matmul_pair is deterministic per seed, A does not depend on N", "[lab05][generator]") {
  const auto a1 = read_array<float>(lab05_test::generate("d1", 20, 30, 40, 7), "a");
  const auto a2 = read_array<float>(lab05_test::generate("d2", 20, 30, 40, 7), "a");
  const auto a3 = read_array<float>(lab05_test::generate("d3", 20, 31, 40, 7), "a");
  const auto a4 = read_array<float>(lab05_test::generate("d4", 20, 30, 40, 8), "a");
  CHECK(a1 == a2);
  CHECK(a1 == a3);
  CHECK(a1 != a4);
  const auto b1 = read_array<float>(lab05_test::generate("d1", 20, 30, 40, 7), "b");
  CHECK(std::vector<float>(a1.begin(), a1.begin() + 100) !=
        std::vector<float>(b1.begin(), b1.begin() + 100));
}

TEST_CASE("matmul_pair rejects bad parameters, naming them", "[lab05][generator]") {
  using Values = std::map<std::string, std::string>;
  auto gen = [](Values values) {
    const fs::path dir = lab05_test::scratch("bad");
    parlab::datasets::generate_matmul_pair(parlab::Params(std::move(values)), 1, dir);
  };
  CHECK_THROWS_WITH(gen(Values({{"m", "0"}})), Catch::Contains("'m'"));
  CHECK_THROWS_WITH(gen(Values({{"k", "20000"}})), Catch::Contains("'k'"));
  CHECK_THROWS_WITH(gen(Values({{"rows", "3"}})), Catch::Contains("unknown parameter"));
  CHECK_THROWS_WITH(gen(Values({{"min_magnitude", "0"}})),
                    Catch::Contains("min_magnitude"));
  CHECK_THROWS_WITH(gen(Values({{"m", "16384"}, {"k", "16384"}, {"n", "1"}})),
                    Catch::Contains("2^26"));
  CHECK_THROWS(gen(Values({{"n", "ten"}})));
}
