#pragma once
// Seeded dataset generators. The grader (trusted side) calls them to produce the files
// a test runs on; the same (generator, params, seed) always gives the same bytes, so
// datasets are cached by that key and public seeds stay reproducible.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "parlab/harness/params.hpp"

namespace parlab::datasets {

// Writes the dataset's files into `out_dir` (which exists and is empty). Throws
// parlab::ParamError for a bad parameter, naming it.
using GenerateFn = void (*)(const Params& params, std::uint64_t seed,
                            const std::filesystem::path& out_dir);

struct Generator {
  std::string_view name;
  std::string_view description;
  GenerateFn generate;
};

// The table of all generators (datasets/src/registry.cpp).
std::vector<Generator> all_generators();
// nullptr when unknown.
const Generator* find_generator(std::string_view name);

// SHA-256 of the generators' sources (datasets/CMakeLists.txt): part of every dataset
// cache key, so an edited generator never serves a dataset it would no longer make.
std::string_view generator_sources_hash();

}  // namespace parlab::datasets
