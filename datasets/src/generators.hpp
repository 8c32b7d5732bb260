#pragma once
// The generate functions listed in registry.cpp, one source file each.
#include <cstdint>
#include <filesystem>

#include "parlab/harness/params.hpp"

namespace parlab::datasets {

// CSV sensor logs for lab01 (sensor_logs.cpp documents the parameters).
void generate_sensor_logs(const Params& params, std::uint64_t seed,
                          const std::filesystem::path& out_dir);

}  // namespace parlab::datasets
