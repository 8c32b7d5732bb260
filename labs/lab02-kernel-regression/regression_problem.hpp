#pragma once
// What the lab02 driver and the CPU reference program (the expected outputs) both need:
// a "regression_data" dataset in memory, and the log-spaced bandwidth grid of a grid
// search, computed the same way on both sides.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"
#include "parlab/harness/arrays.hpp"

namespace lab02 {

struct Data {
  std::int64_t n = 0, m = 0;
  int d = 0;
  std::vector<float> train_x, train_y, query_x, query_y;
  Problem problem() const { return {train_x.data(), train_y.data(), n, query_x.data(), m, d}; }
};

inline std::vector<float> read_floats(const std::filesystem::path& dir, const char* name,
                                      std::int64_t count) {
  std::vector<float> v = parlab::harness::read_array<float>(dir, name);
  if (static_cast<std::int64_t>(v.size()) != count) {
    throw std::runtime_error(std::string("dataset: array '") + name + "' has " +
                             std::to_string(v.size()) + " elements, shape says " +
                             std::to_string(count));
  }
  return v;
}

inline Data load_data(const std::filesystem::path& dir) {
  const auto shape = parlab::harness::read_array<std::int64_t>(dir, "shape");
  if (shape.size() != 3 || shape[0] < 1 || shape[1] < 1 || shape[2] < 1 || shape[2] > 64) {
    throw std::runtime_error("dataset: 'shape' must be [n, m, d] with n, m >= 1 and "
                             "1 <= d <= 64 (was the dataset made by regression_data?)");
  }
  Data data;
  data.n = shape[0];
  data.m = shape[1];
  data.d = static_cast<int>(shape[2]);
  data.train_x = read_floats(dir, "train_x", data.n * data.d);
  data.train_y = read_floats(dir, "train_y", data.n);
  data.query_x = read_floats(dir, "query_x", data.m * data.d);
  data.query_y = read_floats(dir, "query_y", data.m);
  return data;
}

// k bandwidths from h_min to h_max, log-spaced (bandwidths matter by factors), as floats.
inline std::vector<float> bandwidth_grid(float h_min, float h_max, std::int64_t k) {
  std::vector<float> grid(static_cast<std::size_t>(k));
  for (std::int64_t i = 0; i < k; ++i) {
    const double t = k == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(k - 1);
    grid[static_cast<std::size_t>(i)] = static_cast<float>(
        std::exp(std::log(double{h_min}) + t * (std::log(double{h_max}) - std::log(double{h_min}))));
  }
  return grid;
}

}  // namespace lab02
