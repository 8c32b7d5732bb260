#pragma once
// The generate functions listed in registry.cpp, one source file each.
#include <cstdint>
#include <filesystem>

#include "parlab/harness/params.hpp"

namespace parlab::datasets {

// CSV sensor logs for lab01 (sensor_logs.cpp documents the parameters).
void generate_sensor_logs(const Params& params, std::uint64_t seed,
                          const std::filesystem::path& out_dir);

// Vectors, matrices and heat grids for lab03's kernels (kernel_inputs.cpp documents them).
void generate_kernel_inputs(const Params& params, std::uint64_t seed,
                            const std::filesystem::path& out_dir);

// int/float/key arrays for lab04's reductions (reduction_data.cpp documents them).
void generate_reduction_data(const Params& params, std::uint64_t seed,
                             const std::filesystem::path& out_dir);

// Matrices A (M x K) and B (K x N) of one product for lab05 (matmul_pair.cpp).
void generate_matmul_pair(const Params& params, std::uint64_t seed,
                          const std::filesystem::path& out_dir);

// Train and query points of a noisy linear model for lab02 (regression_data.cpp).
void generate_regression_data(const Params& params, std::uint64_t seed,
                              const std::filesystem::path& out_dir);

}  // namespace parlab::datasets
