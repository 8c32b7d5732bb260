// lab04's CPU reference (the source of every expected output) on hand-checkable inputs,
// and the same answers whatever the number of threads.
#include "cpu_reference.hpp"

#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace lab04;

TEST_CASE("cpu max_value: small cases") {
  CHECK(cpu::max_value(std::vector<std::int32_t>{5}, 0) == 5);
  CHECK(cpu::max_value(std::vector<std::int32_t>{-7, -3, -9}, 0) == -3);
  CHECK(cpu::max_value(std::vector<std::int32_t>{INT_MIN + 1, 2, INT_MAX, 4}, 4) == INT_MAX);
  CHECK_THROWS_AS(cpu::max_value(std::vector<std::int32_t>{}, 1), std::invalid_argument);
}

TEST_CASE("cpu max_value: threads and chunk edges agree") {
  std::vector<std::int32_t> v(1'000'003);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int32_t>((i * 2654435761u) % 1000000) - 500000;
  v.back() = 700000;  // in the last chunk, at its very end
  for (int threads : {1, 2, 3, 8}) CHECK(cpu::max_value(v, threads) == 700000);
  v.back() = 0;
  v[0] = 800000;  // the first element
  for (int threads : {1, 5}) CHECK(cpu::max_value(v, threads) == 800000);
}

TEST_CASE("cpu sum: exact in double where float would round") {
  CHECK(cpu::sum(std::vector<float>{1.5f}, 0) == 1.5);
  CHECK(cpu::sum(std::vector<float>{1.0f, -2.0f, 0.25f}, 0) == -0.75);
  // 2^24 + 1 + 1: float keeps 2^24 after each +1; double gets it right.
  CHECK(cpu::sum(std::vector<float>{16777216.0f, 1.0f, 1.0f}, 1) == 16777218.0);
  std::vector<float> ones(1'048'579, 1.0f);
  ones.push_back(16777216.0f);
  for (int threads : {1, 2, 7}) CHECK(cpu::sum(ones, threads) == 1'048'579.0 + 16777216.0);
  CHECK(cpu::sum(std::vector<float>{}, 3) == 0.0);
}

TEST_CASE("cpu histogram: counts and empty bins with every thread count") {
  const std::vector<std::int32_t> keys = {0, 2, 2, 4, 2, 0};
  CHECK(cpu::histogram(keys, 5, 0) == std::vector<std::int32_t>{2, 0, 3, 0, 1});
  CHECK(cpu::histogram(keys, 6, 2) == std::vector<std::int32_t>{2, 0, 3, 0, 1, 0});
  std::vector<std::int32_t> many(300'001);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<std::int32_t>(i % 7);
  const auto h = cpu::histogram(many, 7, 4);
  CHECK(h[0] == 42858);  // 300001 = 7 * 42857 + 2: bins 0 and 1 get one more
  CHECK(h[1] == 42858);
  CHECK(h[6] == 42857);
  CHECK(cpu::histogram(many, 7, 1) == h);
}

TEST_CASE("cpu histogram: a key outside the bins is an error naming it") {
  CHECK_THROWS_WITH(cpu::histogram(std::vector<std::int32_t>{0, 1, 5}, 5, 1),
                    Catch::Contains("keys[2] = 5 is outside [0, 5)"));
  CHECK_THROWS_WITH(cpu::histogram(std::vector<std::int32_t>{-1}, 5, 1),
                    Catch::Contains("keys[0] = -1"));
}
