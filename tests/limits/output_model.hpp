#pragma once
// The arrays each lab task writes (tests/limits/task_outputs.toml), and the arithmetic
// that turns them into bytes for one test's parameters. Pure: no files but the model's.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parlab/harness/params.hpp"

namespace parlab::limits {

struct ArrayModel {
  std::string name;
  std::string elements;  // "n", "rows * cols", "1": a product of parameters and integers
  int expected_bytes = 8;  // per element, as the expected-output program writes it
  int program_bytes = 4;   // per element, as the graded program writes it
};

// lab id -> task -> arrays.
using OutputModel = std::map<std::string, std::map<std::string, std::vector<ArrayModel>>>;

// Throws std::runtime_error naming the file and what is wrong.
OutputModel load_output_model(const std::filesystem::path& toml_file);

// The element count of `expr` with each name looked up in `test` first, then `dataset`.
// Throws std::runtime_error naming a missing or non-integer parameter.
std::uint64_t count_elements(const std::string& expr, const Params& test, const Params& dataset);

// Which program of a grading writes an output: the one that makes the expected
// outputs, or the graded (and timed) one.
enum class Writer { expected, program };

struct ArrayBytes {
  std::string name;
  std::uint64_t elements = 0;
  std::uint64_t bytes = 0;
};

std::vector<ArrayBytes> output_bytes(const std::vector<ArrayModel>& arrays, Writer writer,
                                     const Params& test, const Params& dataset);

}  // namespace parlab::limits
