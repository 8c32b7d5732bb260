#pragma once
// The lab drivers' one way to load a dataset and check its shape. A malformed dataset is
// a grader problem, never the student's: every message starts "dataset:" and names the
// array, what it holds and what was expected (and the generator that makes it).
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "parlab/harness/arrays.hpp"

namespace parlab::harness {

class DatasetError : public std::runtime_error {
 public:
  explicit DatasetError(const std::string& what) : std::runtime_error("dataset: " + what) {}
};

// One entry of a dataset's "shape" array: its name for messages and its allowed range.
struct ShapeEntry {
  const char* name;
  std::int64_t min = 1;
  std::int64_t max = INT32_MAX;  // the labs' APIs take int sizes, as most CUDA code does
};

// The dataset's "shape" array: exactly one value per entry, each within its range.
// `generator` names the datasets/ generator that writes it, for the message.
std::vector<std::int64_t> read_shape(const std::filesystem::path& dir,
                                     std::initializer_list<ShapeEntry> entries,
                                     const char* generator);

// Throws DatasetError unless array `name` has `count` elements (`why` says where the
// count comes from, e.g. "n * d").
void check_count(const std::string& name, std::size_t got, std::int64_t count,
                 const std::string& why);

// Array `name` with exactly `count` elements.
template <class T>
std::vector<T> read_array_of(const std::filesystem::path& dir, const std::string& name,
                             std::int64_t count, const std::string& why) {
  std::vector<T> values = read_array<T>(dir, name);
  check_count(name, values.size(), count, why);
  return values;
}

// Array `name` holding one value.
template <class T>
T read_scalar(const std::filesystem::path& dir, const std::string& name) {
  return read_array_of<T>(dir, name, 1, "a scalar")[0];
}

}  // namespace parlab::harness
