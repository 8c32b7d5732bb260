// lab02's CPU reference (reference/lab02-kernel-regression/nw_cpu.hpp): the three
// prediction variants agree, the definition's limits (tiny and huge bandwidths) hold,
// threads do not change a bit, R^2 and the grid search behave, arguments are checked.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "scratch_dir.hpp"
#include "nw_cpu.hpp"
#include "parlab/datasets/generator.hpp"
#include "parlab/harness/arrays.hpp"

namespace fs = std::filesystem;
using namespace lab02::reference;

namespace {

struct Data {
  std::vector<float> train_x, train_y, query_x, query_y;
  int d = 1;

  Problem problem() const {
    return {train_x.data(), train_y.data(), static_cast<std::int64_t>(train_y.size()),
            query_x.data(), static_cast<std::int64_t>(query_x.size() / d), d};
  }
};

// x uniform in [-1, 1]^d, y uniform in [1, 3]: every prediction is a weighted mean of
// y, so it lies in [1, 3] and a relative comparison is meaningful.
Data make_random(std::int64_t n, std::int64_t m, int d, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> coord(-1.0f, 1.0f), target(1.0f, 3.0f);
  Data data;
  data.d = d;
  for (std::int64_t i = 0; i < n * d; ++i) data.train_x.push_back(coord(rng));
  for (std::int64_t i = 0; i < n; ++i) data.train_y.push_back(target(rng));
  for (std::int64_t i = 0; i < m * d; ++i) data.query_x.push_back(coord(rng));
  for (std::int64_t i = 0; i < m; ++i) data.query_y.push_back(target(rng));
  return data;
}

std::vector<double> naive(const Data& data, double h) {
  std::vector<double> out(data.query_x.size() / data.d);
  predict_naive(data.problem(), h, out.data());
  return out;
}
std::vector<double> vectorized(const Data& data, double h) {
  std::vector<double> out(data.query_x.size() / data.d);
  predict_vectorized(data.problem(), h, out.data());
  return out;
}
std::vector<double> parallel(const Data& data, double h, int threads) {
  std::vector<double> out(data.query_x.size() / data.d);
  predict_parallel(data.problem(), h, out.data(), threads);
  return out;
}

bool close(double a, double b, double rel) {
  return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

// Data from the generator, as the lab will use it.
Data generated(std::int64_t n, std::int64_t m, int d, double noise, std::uint64_t seed) {
  static const parlab::testing::ScratchDir root;  // removed when the test process ends
  const fs::path dir = root / "nw_generated";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto* gen = parlab::datasets::find_generator("regression_data");
  REQUIRE(gen != nullptr);
  gen->generate(parlab::Params({{"n", std::to_string(n)}, {"m", std::to_string(m)},
                                {"d", std::to_string(d)}, {"noise", std::to_string(noise)}}),
                seed, dir);
  using parlab::harness::read_array;
  Data data{read_array<float>(dir, "train_x"), read_array<float>(dir, "train_y"),
            read_array<float>(dir, "query_x"), read_array<float>(dir, "query_y"), d};
  fs::remove_all(dir);
  return data;
}

std::vector<double> log_grid(double lo, double hi, int count) {
  std::vector<double> grid;
  for (int i = 0; i < count; ++i) {
    grid.push_back(lo * std::pow(hi / lo, static_cast<double>(i) / (count - 1)));
  }
  return grid;
}

}  // namespace

TEST_CASE("lab02 nw: the three predict variants agree on random data", "[lab02][nw]") {
  struct Shape {
    std::int64_t n, m;
    int d;
  };
  // Edge sizes, primes, and train sets of more than one block (5461 points of d = 3,
  // 256 of d = 64, 16384 of d = 1 make a block) so the online rescaling is exercised.
  const Shape shapes[] = {{1, 1, 1},   {1, 7, 3},     {13, 1, 2},   {97, 31, 1},
                          {1009, 53, 5}, {6007, 17, 3}, {601, 11, 64}, {20011, 5, 1}};
  unsigned seed = 1;
  for (const Shape& s : shapes) {
    const Data data = make_random(s.n, s.m, s.d, seed++);
    for (double h : {0.05, 0.3, 1.0, 7.0}) {
      INFO("n=" << s.n << " m=" << s.m << " d=" << s.d << " h=" << h);
      const auto a = naive(data, h), b = vectorized(data, h), c = parallel(data, h, 3);
      for (std::size_t i = 0; i < a.size(); ++i) {
        INFO("query " << i << ": naive " << a[i] << " vectorized " << b[i] << " parallel " << c[i]);
        REQUIRE(close(a[i], b[i], 1e-9));
        REQUIRE(close(a[i], c[i], 1e-9));
      }
    }
  }
}

TEST_CASE("lab02 nw: a hand-computed example", "[lab02][nw]") {
  // 1-D train points 0, 1, 3 with y 1, 2, 4; query 0.5, h = 1: squared distances 0.25,
  // 0.25, 6.25; s = -0.125, -0.125, -3.125; weights 1, 1, e^-3.
  Data data{{0.0f, 1.0f, 3.0f}, {1.0f, 2.0f, 4.0f}, {0.5f}, {0.0f}, 1};
  const double e3 = std::exp(-3.0);
  const double expected = (1.0 + 2.0 + 4.0 * e3) / (2.0 + e3);
  CHECK(naive(data, 1.0)[0] == Approx(expected).epsilon(1e-14));
  CHECK(vectorized(data, 1.0)[0] == Approx(expected).epsilon(1e-14));
  CHECK(parallel(data, 1.0, 2)[0] == Approx(expected).epsilon(1e-14));

  // 2-D: train (0,0) y=2 and (1,1) y=6; query (1,0): both at squared distance 1, so the
  // mean 4; query (0,0) with h = 0.5: distances 0 and 2, weights 1 and e^-4.
  Data two{{0, 0, 1, 1}, {2, 6}, {1, 0, 0, 0}, {0, 0}, 2};
  const double e4 = std::exp(-4.0);
  for (const auto& pred : {naive(two, 0.5), vectorized(two, 0.5), parallel(two, 0.5, 2)}) {
    CHECK(pred[0] == Approx(4.0).epsilon(1e-15));
    CHECK(pred[1] == Approx((2.0 + 6.0 * e4) / (1.0 + e4)).epsilon(1e-14));
  }
}

TEST_CASE("lab02 nw: a huge bandwidth predicts the mean of y", "[lab02][nw]") {
  const Data data = make_random(501, 9, 3, 42);
  double mean = 0;
  for (float y : data.train_y) mean += y;
  mean /= static_cast<double>(data.train_y.size());
  for (const auto& pred : {naive(data, 1e8), vectorized(data, 1e8), parallel(data, 1e8, 4)}) {
    for (double v : pred) REQUIRE(v == Approx(mean).epsilon(1e-12));
  }
}

TEST_CASE("lab02 nw: a tiny bandwidth gives the y of the nearest point and never NaN",
          "[lab02][nw]") {
  // Train points on a 21x21 grid of step 0.1; each query sits 0.01 and -0.02 away from
  // one grid point: that point is the unique nearest (squared distance 0.0005, the next
  // at least 0.0064).
  Data data;
  data.d = 2;
  for (int i = 0; i <= 20; ++i) {
    for (int j = 0; j <= 20; ++j) {
      data.train_x.push_back(-1.0f + 0.1f * i);
      data.train_x.push_back(-1.0f + 0.1f * j);
      data.train_y.push_back(static_cast<float>(i * 21 + j) * 0.25f - 7.0f);
    }
  }
  const int picks[] = {0, 20, 220, 221, 440, 137};
  for (int k : picks) {
    data.query_x.push_back(data.train_x[2 * k] + 0.01f);
    data.query_x.push_back(data.train_x[2 * k + 1] - 0.02f);
    data.query_y.push_back(0.0f);
  }
  const double h = 1e-4;
  // The test means something: the plain formula's every exp(s_ij) is 0, hence 0/0.
  for (std::size_t q = 0; q < data.query_y.size(); ++q) {
    for (std::size_t j = 0; j < data.train_y.size(); ++j) {
      const double dx = double(data.query_x[2 * q]) - data.train_x[2 * j];
      const double dy = double(data.query_x[2 * q + 1]) - data.train_x[2 * j + 1];
      REQUIRE(std::exp(-(dx * dx + dy * dy) / (2 * h * h)) == 0.0);
    }
  }
  for (double tiny : {h, 1e-200}) {
    for (const auto& pred : {naive(data, tiny), vectorized(data, tiny), parallel(data, tiny, 3)}) {
      for (std::size_t q = 0; q < pred.size(); ++q) {
        REQUIRE_FALSE(std::isnan(pred[q]));
        REQUIRE(pred[q] == double(data.train_y[static_cast<std::size_t>(picks[q])]));
      }
    }
  }
}

TEST_CASE("lab02 nw: a tiny bandwidth between two equally near points gives their mean",
          "[lab02][nw]") {
  Data data{{0.0f, 1.0f, 4.0f}, {3.0f, 8.0f, 100.0f}, {0.5f}, {0.0f}, 1};
  for (const auto& pred : {naive(data, 1e-4), vectorized(data, 1e-4), parallel(data, 1e-4, 2)}) {
    CHECK(pred[0] == 5.5);
  }
}

TEST_CASE("lab02 nw: the nearest point in a later train block rescales the sums",
          "[lab02][nw]") {
  // d = 1: 16384 train points make a block. The first block holds only far points
  // (x = 1, y = 5), the second the one near point (x = 0, y = -3). With h = 0.01 the far
  // weights are exp(-5000) = 0 relative to the near one: the prediction is exactly -3.
  Data data;
  data.d = 1;
  data.train_x.assign(16384, 1.0f);
  data.train_y.assign(16384, 5.0f);
  data.train_x.push_back(0.0f);
  data.train_y.push_back(-3.0f);
  data.query_x = {0.0f};
  data.query_y = {0.0f};
  CHECK(naive(data, 0.01)[0] == -3.0);
  CHECK(vectorized(data, 0.01)[0] == -3.0);
  CHECK(parallel(data, 0.01, 2)[0] == -3.0);
  // h = 1: far weight e^-0.5 each, exactly the closed form.
  const double w = std::exp(-0.5);
  const double expected = (16384 * 5.0 * w - 3.0) / (16384 * w + 1.0);
  CHECK(vectorized(data, 1.0)[0] == Approx(expected).epsilon(1e-12));
}

TEST_CASE("lab02 nw: predict_parallel equals predict_vectorized for any thread count",
          "[lab02][nw][threads]") {
  const Data data = make_random(6007, 29, 3, 7);
  const auto expected = vectorized(data, 0.2);
  for (int threads : {1, 2, 3, 7, 64}) {  // 64 threads > 29 queries
    INFO("threads " << threads);
    CHECK(parallel(data, 0.2, threads) == expected);
  }
  const Data one = make_random(100, 1, 2, 8);
  CHECK(parallel(one, 0.5, 5) == vectorized(one, 0.5));
}

TEST_CASE("lab02 nw: r_squared of perfect predictions is 1 and of the mean is 0",
          "[lab02][r2]") {
  const std::vector<float> truth = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f};
  const std::vector<double> perfect(truth.begin(), truth.end());
  CHECK(r_squared(truth.data(), perfect.data(), 5) == 1.0);
  double mean = 0;
  for (float y : truth) mean += y;
  mean /= 5;
  const std::vector<double> means(5, mean);
  CHECK(r_squared(truth.data(), means.data(), 5) == Approx(0.0).margin(1e-15));
  // SS_res = 1, SS_tot = 2.
  const std::vector<float> t3 = {1, 2, 3};
  const std::vector<double> p3 = {1, 2, 4};
  CHECK(r_squared(t3.data(), p3.data(), 3) == Approx(0.5).epsilon(1e-15));
  // Worse than the mean is negative.
  const std::vector<double> bad = {3, 2, 1};
  CHECK(r_squared(t3.data(), bad.data(), 3) == Approx(-3.0).epsilon(1e-15));
  const std::vector<double> nan = {1, std::nan(""), 3};
  CHECK(std::isnan(r_squared(t3.data(), nan.data(), 3)));
}

TEST_CASE("lab02 nw: r_squared of a constant truth is 1 when exact and 0 otherwise",
          "[lab02][r2]") {
  const std::vector<float> flat = {2, 2, 2, 2};
  const std::vector<double> exact = {2, 2, 2, 2}, off = {2, 2, 2.5, 2};
  CHECK(r_squared(flat.data(), exact.data(), 4) == 1.0);
  CHECK(r_squared(flat.data(), off.data(), 4) == 0.0);
  const float one = 4.0f;
  const double pred = 4.0;
  CHECK(r_squared(&one, &pred, 1) == 1.0);
}

TEST_CASE("lab02 nw: grid search on noisy linear data picks an inner bandwidth",
          "[lab02][grid]") {
  const Data data = generated(2000, 500, 3, 0.1, 2024);
  const std::vector<double> grid = log_grid(1e-3, 1e3, 25);
  const std::vector<double> r2 = grid_search(data.problem(), data.query_y.data(), grid, 3);
  REQUIRE(r2.size() == grid.size());
  const std::size_t best = best_bandwidth(r2);
  INFO("best h " << grid[best] << " R^2 " << r2[best]);
  CHECK(best > 0);
  CHECK(best < grid.size() - 1);
  CHECK(r2[best] > 0.9);
  CHECK(r2[best] > r2.front());
  CHECK(std::fabs(r2.back()) < 0.01);  // h = 1000: the mean of y, R^2 near 0

  // The same numbers as predicting with each bandwidth, whatever the thread count.
  CHECK(grid_search(data.problem(), data.query_y.data(), grid, 1) == r2);
  CHECK(grid_search(data.problem(), data.query_y.data(), grid, 16) == r2);
  for (std::size_t k : {std::size_t{0}, best, grid.size() - 1}) {
    const auto pred = parallel(data, grid[k], 2);
    CHECK(r_squared(data.query_y.data(), pred.data(), data.problem().m) == r2[k]);
  }
}

TEST_CASE("lab02 nw: grid search with fewer queries than threads splits the bandwidths",
          "[lab02][grid]") {
  const Data data = generated(300, 2, 2, 0.1, 5);
  const std::vector<double> grid = log_grid(1e-2, 1e2, 9);
  const auto serial = grid_search(data.problem(), data.query_y.data(), grid, 1);
  CHECK(grid_search(data.problem(), data.query_y.data(), grid, 8) == serial);
  for (std::size_t k = 0; k < grid.size(); ++k) {
    const auto pred = naive(data, grid[k]);
    CHECK(r_squared(data.query_y.data(), pred.data(), 2) ==
          Approx(serial[k]).epsilon(1e-9).margin(1e-9));
  }
}

TEST_CASE("lab02 nw: best_bandwidth takes the largest R^2 and the first of ties",
          "[lab02][grid]") {
  CHECK(best_bandwidth({0.1, 0.5, 0.5, 0.2}) == 1);
  CHECK(best_bandwidth({-3.0, -1.0, -2.0}) == 1);
  CHECK(best_bandwidth({0.7}) == 0);
  const double nan = std::nan("");
  CHECK(best_bandwidth({nan, 0.3, nan, 0.1}) == 1);
  CHECK(best_bandwidth({0.2, nan, 0.9}) == 2);
  CHECK_THROWS_AS(best_bandwidth({}), std::invalid_argument);
  CHECK_THROWS_WITH(best_bandwidth({nan, nan}), Catch::Contains("NaN"));
}

TEST_CASE("lab02 nw: invalid arguments are rejected naming them", "[lab02][nw]") {
  const Data data = make_random(10, 3, 2, 3);
  std::vector<double> out(3);
  const Problem good = data.problem();
  for (double h : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::nan(""), 1e-310}) {
    INFO("h " << h);
    CHECK_THROWS_WITH(predict_naive(good, h, out.data()), Catch::Contains("h must"));
    CHECK_THROWS_WITH(predict_vectorized(good, h, out.data()), Catch::Contains("h must"));
    CHECK_THROWS_WITH(predict_parallel(good, h, out.data(), 2), Catch::Contains("h must"));
  }
  Problem p = good;
  p.n = 0;
  CHECK_THROWS_WITH(predict_naive(p, 1.0, out.data()), Catch::Contains("n must"));
  p = good;
  p.m = 0;
  CHECK_THROWS_WITH(predict_vectorized(p, 1.0, out.data()), Catch::Contains("m must"));
  p = good;
  p.d = 0;
  CHECK_THROWS_WITH(predict_parallel(p, 1.0, out.data(), 1), Catch::Contains("d must"));
  p = good;
  p.train_y = nullptr;
  CHECK_THROWS_WITH(predict_naive(p, 1.0, out.data()), Catch::Contains("train_y"));
  CHECK_THROWS_WITH(predict_naive(good, 1.0, nullptr), Catch::Contains("out"));
  CHECK_THROWS_WITH(predict_parallel(good, 1.0, out.data(), 0), Catch::Contains("threads"));
  CHECK_THROWS_WITH(grid_search(good, data.query_y.data(), {}, 1), Catch::Contains("bandwidths"));
  CHECK_THROWS_WITH(grid_search(good, data.query_y.data(), {1.0, 0.0}, 1),
                    Catch::Contains("bandwidths[1]"));
  CHECK_THROWS_WITH(grid_search(good, nullptr, {1.0}, 1), Catch::Contains("query_y"));
  CHECK_THROWS_WITH(grid_search(good, data.query_y.data(), {1.0}, -2), Catch::Contains("threads"));
  CHECK_THROWS_WITH(r_squared(data.query_y.data(), out.data(), 0), Catch::Contains("m must"));
  CHECK_THROWS_AS(r_squared(nullptr, out.data(), 3), std::invalid_argument);
}
