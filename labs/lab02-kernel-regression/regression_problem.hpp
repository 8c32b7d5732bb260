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
#include "parlab/harness/dataset_inputs.hpp"

namespace lab02 {

struct Data {
  std::int64_t n = 0, m = 0;
  int d = 0;
  std::vector<float> train_x, train_y, query_x, query_y;
  Problem problem() const { return {train_x.data(), train_y.data(), n, query_x.data(), m, d}; }
};

inline Data load_data(const std::filesystem::path& dir) {
  namespace h = parlab::harness;
  const auto shape = h::read_shape(
      dir, {{"n"}, {"m"}, {"d", 1, 64}}, "regression_data");
  Data data;
  data.n = shape[0];
  data.m = shape[1];
  data.d = static_cast<int>(shape[2]);
  data.train_x = h::read_array_of<float>(dir, "train_x", data.n * data.d, "n * d");
  data.train_y = h::read_array_of<float>(dir, "train_y", data.n, "n");
  data.query_x = h::read_array_of<float>(dir, "query_x", data.m * data.d, "m * d");
  data.query_y = h::read_array_of<float>(dir, "query_y", data.m, "m");
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
