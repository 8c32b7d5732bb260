#pragma once
// Helpers for the lab05 tests: scratch folders and generated datasets.
#include <cstdint>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "generators.hpp"
#include "scratch_dir.hpp"

namespace lab05_test {

// An empty folder under the system temp dir, unique to this test process, removed with
// everything in it when the process ends.
inline std::filesystem::path scratch(const std::string& name) {
  static const parlab::testing::ScratchDir root;
  const std::filesystem::path dir = root / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::filesystem::path generate(const std::string& name, int m, int n, int k,
                                      std::uint64_t seed) {
  const std::filesystem::path dir = scratch(name);
  parlab::Params p({{"m", std::to_string(m)}, {"n", std::to_string(n)}, {"k", std::to_string(k)}});
  parlab::datasets::generate_matmul_pair(p, seed, dir);
  return dir;
}

}  // namespace lab05_test
