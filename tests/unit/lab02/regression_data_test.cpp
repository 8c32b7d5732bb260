// lab02's dataset generator "regression_data": determinism, independent streams, shapes
// and ranges, the linear model behind the values, CSV copies that read back to the very
// same floats, and errors for bad parameters.
#include <libfccp/csv.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "scratch_dir.hpp"
#include "parlab/datasets/generator.hpp"
#include "parlab/harness/arrays.hpp"

namespace fs = std::filesystem;
using parlab::Params;
using parlab::harness::read_array;

namespace {

using Values = std::map<std::string, std::string>;

// Removed with everything in it when the test process ends.
fs::path scratch(const std::string& name) {
  static const parlab::testing::ScratchDir root;
  const fs::path dir = root / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path generate(const std::string& name, const Values& values, std::uint64_t seed) {
  const fs::path dir = scratch(name);
  const auto* gen = parlab::datasets::find_generator("regression_data");
  REQUIRE(gen != nullptr);
  gen->generate(Params(values), seed, dir);
  return dir;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

const char* const kArrays[] = {"shape.bin", "train_x.bin", "train_y.bin", "query_x.bin",
                               "query_y.bin"};

// Least squares fit of y = c0 + c1 x0 + ... by the normal equations (Gaussian
// elimination with partial pivoting, small d only); returns the largest |residual|.
double max_linear_residual(const std::vector<float>& x, const std::vector<float>& y, int d) {
  const int k = d + 1;
  std::vector<double> a(static_cast<std::size_t>(k * (k + 1)), 0.0);  // [A | b]
  std::vector<double> row(static_cast<std::size_t>(k));
  for (std::size_t j = 0; j < y.size(); ++j) {
    row[0] = 1.0;
    for (int i = 0; i < d; ++i) row[i + 1] = x[j * d + i];
    for (int r = 0; r < k; ++r) {
      for (int c = 0; c < k; ++c) a[r * (k + 1) + c] += row[r] * row[c];
      a[r * (k + 1) + k] += row[r] * y[j];
    }
  }
  for (int c = 0; c < k; ++c) {
    int pivot = c;
    for (int r = c + 1; r < k; ++r) {
      if (std::fabs(a[r * (k + 1) + c]) > std::fabs(a[pivot * (k + 1) + c])) pivot = r;
    }
    for (int i = 0; i <= k; ++i) std::swap(a[c * (k + 1) + i], a[pivot * (k + 1) + i]);
    for (int r = 0; r < k; ++r) {
      if (r == c) continue;
      const double f = a[r * (k + 1) + c] / a[c * (k + 1) + c];
      for (int i = c; i <= k; ++i) a[r * (k + 1) + i] -= f * a[c * (k + 1) + i];
    }
  }
  double worst = 0;
  for (std::size_t j = 0; j < y.size(); ++j) {
    double fit = a[k] / a[0];  // intercept: row 0 solved
    for (int i = 0; i < d; ++i) {
      fit += a[(i + 1) * (k + 1) + k] / a[(i + 1) * (k + 1) + i + 1] * x[j * d + i];
    }
    worst = std::max(worst, std::fabs(fit - y[j]));
  }
  return worst;
}

float parse_float(const char* text) {
  float v = 0;
  const char* end = text + std::strlen(text);
  const auto [stop, ec] = std::from_chars(text, end, v);
  REQUIRE(ec == std::errc{});
  REQUIRE(stop == end);
  return v;
}

}  // namespace

TEST_CASE("regression_data: same seed gives the same bytes and another seed other data",
          "[lab02][generator]") {
  const Values p = {{"n", "300"}, {"m", "70"}, {"d", "4"}};
  const fs::path a = generate("det_a", p, 11);
  const fs::path b = generate("det_b", p, 11);
  const fs::path c = generate("det_c", p, 12);
  for (const char* file : kArrays) CHECK(bytes_of(a / file) == bytes_of(b / file));
  CHECK(bytes_of(a / "manifest.json") == bytes_of(b / "manifest.json"));
  CHECK(bytes_of(a / "shape.bin") == bytes_of(c / "shape.bin"));
  for (const char* file : {"train_x.bin", "train_y.bin", "query_x.bin", "query_y.bin"}) {
    CHECK(bytes_of(a / file) != bytes_of(c / file));
  }
}

TEST_CASE("regression_data: the train set does not depend on m nor the query set on n",
          "[lab02][generator]") {
  const fs::path a = generate("m_a", {{"n", "200"}, {"m", "50"}, {"d", "3"}}, 5);
  const fs::path b = generate("m_b", {{"n", "200"}, {"m", "51"}, {"d", "3"}}, 5);
  const fs::path c = generate("m_c", {{"n", "201"}, {"m", "50"}, {"d", "3"}}, 5);
  CHECK(bytes_of(a / "train_x.bin") == bytes_of(b / "train_x.bin"));
  CHECK(bytes_of(a / "train_y.bin") == bytes_of(b / "train_y.bin"));
  CHECK(bytes_of(a / "query_x.bin") == bytes_of(c / "query_x.bin"));
  CHECK(bytes_of(a / "query_y.bin") == bytes_of(c / "query_y.bin"));
  // The query set is a stream of its own, not a continuation of the train set.
  const auto train = read_array<float>(a, "train_x");
  const auto query = read_array<float>(a, "query_x");
  CHECK(std::vector<float>(train.begin(), train.begin() + 30) !=
        std::vector<float>(query.begin(), query.begin() + 30));
}

TEST_CASE("regression_data: noise changes y only", "[lab02][generator]") {
  const fs::path a = generate("noise_a", {{"n", "100"}, {"noise", "0"}}, 9);
  const fs::path b = generate("noise_b", {{"n", "100"}, {"noise", "2.5"}}, 9);
  CHECK(bytes_of(a / "train_x.bin") == bytes_of(b / "train_x.bin"));
  CHECK(bytes_of(a / "query_x.bin") == bytes_of(b / "query_x.bin"));
  CHECK(bytes_of(a / "train_y.bin") != bytes_of(b / "train_y.bin"));
}

TEST_CASE("regression_data: default shape and array sizes", "[lab02][generator]") {
  const fs::path d = generate("defaults", {}, 1);
  CHECK(read_array<std::int64_t>(d, "shape") == std::vector<std::int64_t>{2000, 500, 3});
  CHECK(read_array<float>(d, "train_x").size() == 2000u * 3u);
  CHECK(read_array<float>(d, "train_y").size() == 2000u);
  CHECK(read_array<float>(d, "query_x").size() == 500u * 3u);
  CHECK(read_array<float>(d, "query_y").size() == 500u);
  CHECK_FALSE(fs::exists(d / "train.csv"));  // format = binary by default
  CHECK_FALSE(fs::exists(d / "query.csv"));
}

TEST_CASE("regression_data: sizes follow n m and d", "[lab02][generator]") {
  const fs::path d = generate("sizes", {{"n", "1"}, {"m", "13"}, {"d", "64"}}, 2);
  CHECK(read_array<std::int64_t>(d, "shape") == std::vector<std::int64_t>{1, 13, 64});
  CHECK(read_array<float>(d, "train_x").size() == 64u);
  CHECK(read_array<float>(d, "train_y").size() == 1u);
  CHECK(read_array<float>(d, "query_x").size() == 13u * 64u);
  CHECK(read_array<float>(d, "query_y").size() == 13u);
}

TEST_CASE("regression_data: x fills -1 to 1 and y stays within the bounds of the model",
          "[lab02][generator]") {
  const int dim = 5;
  const fs::path d = generate("range", {{"n", "4000"}, {"d", std::to_string(dim)}}, 3);
  const auto x = read_array<float>(d, "train_x");
  CHECK(std::all_of(x.begin(), x.end(), [](float v) { return v >= -1.0f && v <= 1.0f; }));
  CHECK(*std::min_element(x.begin(), x.end()) < -0.99f);
  CHECK(*std::max_element(x.begin(), x.end()) > 0.99f);
  // |y| <= sum |w_i| + |b| + 0.1 * 3.47 <= 2 d + 1.35.
  const auto y = read_array<float>(d, "train_y");
  CHECK(std::all_of(y.begin(), y.end(), [](float v) {
    return std::isfinite(v) && std::fabs(v) <= 2.0f * dim + 1.35f;
  }));
  // A weight of magnitude >= 0.5 on every dimension: y is not constant.
  CHECK(*std::max_element(y.begin(), y.end()) - *std::min_element(y.begin(), y.end()) > 1.0f);
}

TEST_CASE("regression_data: with noise 0 the points of d = 1 lie on one line",
          "[lab02][generator]") {
  const fs::path d = generate("line", {{"n", "500"}, {"m", "100"}, {"d", "1"}, {"noise", "0"}}, 4);
  const auto x = read_array<float>(d, "train_x");
  const auto y = read_array<float>(d, "train_y");
  // The line through the two points farthest apart in x; every other point is on it
  // up to the float rounding of y (|y| <= 3: half an ulp is below 2.4e-7).
  const auto lo = std::min_element(x.begin(), x.end()) - x.begin();
  const auto hi = std::max_element(x.begin(), x.end()) - x.begin();
  const double slope = (double(y[hi]) - y[lo]) / (double(x[hi]) - x[lo]);
  const double intercept = y[lo] - slope * x[lo];
  CHECK(std::fabs(slope) >= 0.5 - 1e-5);
  CHECK(std::fabs(slope) <= 2.0 + 1e-5);
  CHECK(std::fabs(intercept) <= 1.0 + 1e-5);
  const auto qx = read_array<float>(d, "query_x");
  const auto qy = read_array<float>(d, "query_y");
  for (std::size_t j = 0; j < x.size(); ++j) {
    REQUIRE(std::fabs(slope * x[j] + intercept - y[j]) < 1e-6);
  }
  // The query set follows the same model.
  for (std::size_t j = 0; j < qx.size(); ++j) {
    REQUIRE(std::fabs(slope * qx[j] + intercept - qy[j]) < 1e-6);
  }
}

TEST_CASE("regression_data: with noise 0 y is linear in x and noise adds that spread",
          "[lab02][generator]") {
  const fs::path exact = generate("linear0", {{"n", "1000"}, {"d", "3"}, {"noise", "0"}}, 6);
  CHECK(max_linear_residual(read_array<float>(exact, "train_x"),
                            read_array<float>(exact, "train_y"), 3) < 1e-5);
  CHECK(max_linear_residual(read_array<float>(exact, "query_x"),
                            read_array<float>(exact, "query_y"), 3) < 1e-5);
  // noise = 0.5: the noise-free part is the same (same x, same model), so y - y0 is the
  // noise itself: mean near 0, standard deviation near 0.5, bounded by 0.5 * 3.47.
  const fs::path noisy = generate("linear1", {{"n", "1000"}, {"d", "3"}, {"noise", "0.5"}}, 6);
  const auto y0 = read_array<float>(exact, "train_y");
  const auto y1 = read_array<float>(noisy, "train_y");
  double sum = 0, sum2 = 0, worst = 0;
  for (std::size_t j = 0; j < y0.size(); ++j) {
    const double e = double(y1[j]) - y0[j];
    sum += e;
    sum2 += e * e;
    worst = std::max(worst, std::fabs(e));
  }
  const double mean = sum / y0.size(), sd = std::sqrt(sum2 / y0.size() - mean * mean);
  CHECK(std::fabs(mean) < 0.06);
  CHECK(sd > 0.45);
  CHECK(sd < 0.55);
  CHECK(worst <= 0.5 * 3.4641 + 1e-5);
}

TEST_CASE("regression_data: the CSV files read back to exactly the binary floats",
          "[lab02][generator][csv]") {
  const fs::path d =
      generate("csv", {{"n", "777"}, {"m", "123"}, {"d", "2"}, {"format", "both"}}, 8);
  for (const std::string set : {"train", "query"}) {
    const auto x = read_array<float>(d, set + "_x");
    const auto y = read_array<float>(d, set + "_y");
    io::CSVReader<3> csv((d / (set + ".csv")).string());
    csv.read_header(io::ignore_no_column, "x0", "x1", "y");
    char *x0 = nullptr, *x1 = nullptr, *yt = nullptr;
    std::size_t rows = 0;
    // Fields as text, parsed with the correctly rounded std::from_chars: the library's
    // own float parser is not exact.
    while (csv.read_row(x0, x1, yt)) {
      REQUIRE(rows < y.size());
      REQUIRE(parse_float(x0) == x[2 * rows]);
      REQUIRE(parse_float(x1) == x[2 * rows + 1]);
      REQUIRE(parse_float(yt) == y[rows]);
      ++rows;
    }
    CHECK(rows == y.size());
  }
}

TEST_CASE("regression_data: the CSV header names every column and format csv keeps the arrays",
          "[lab02][generator][csv]") {
  const fs::path d =
      generate("csv_only", {{"n", "10"}, {"m", "4"}, {"d", "5"}, {"format", "csv"}}, 1);
  io::LineReader lines((d / "query.csv").string());
  CHECK(std::string(lines.next_line()) == "x0,x1,x2,x3,x4,y");
  int rows = 0;
  while (const char* line = lines.next_line()) {
    CHECK(std::count(line, line + std::strlen(line), ',') == 5);
    ++rows;
  }
  CHECK(rows == 4);
  CHECK(fs::exists(d / "train.csv"));
  // The binary arrays come with any format, so a driver can always read them.
  CHECK(read_array<float>(d, "query_y").size() == 4u);
  CHECK(read_array<float>(d, "train_x").size() == 50u);
}

TEST_CASE("regression_data: rejects bad parameters naming them", "[lab02][generator]") {
  auto gen = [](const Values& values) { generate("bad", values, 1); };
  CHECK_THROWS_WITH(gen({{"n", "0"}}), Catch::Contains("'n'"));
  CHECK_THROWS_WITH(gen({{"n", "16777217"}}), Catch::Contains("'n'"));
  CHECK_THROWS_WITH(gen({{"m", "0"}}), Catch::Contains("'m'"));
  CHECK_THROWS_WITH(gen({{"m", "16777217"}}), Catch::Contains("'m'"));
  CHECK_THROWS_WITH(gen({{"d", "0"}}), Catch::Contains("'d'"));
  CHECK_THROWS_WITH(gen({{"d", "65"}}), Catch::Contains("'d'"));
  CHECK_THROWS_WITH(gen({{"noise", "-0.1"}}), Catch::Contains("'noise'"));
  CHECK_THROWS_WITH(gen({{"noise", "11"}}), Catch::Contains("'noise'"));
  CHECK_THROWS_WITH(gen({{"noise", "nan"}}), Catch::Contains("'noise'"));
  CHECK_THROWS_WITH(gen({{"format", "parquet"}}), Catch::Contains("'format'"));
  CHECK_THROWS_WITH(gen({{"n", "16777216"}, {"d", "5"}}),
                    Catch::Contains("'n'") && Catch::Contains("2^26"));
  CHECK_THROWS_WITH(gen({{"m", "16777216"}, {"d", "5"}}),
                    Catch::Contains("'m'") && Catch::Contains("2^26"));
  CHECK_THROWS_WITH(gen({{"rows", "3"}}), Catch::Contains("unknown parameter"));
  CHECK_THROWS_WITH(gen({{"d", "three"}}), Catch::Contains("'d'"));
}
