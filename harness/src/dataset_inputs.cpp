#include "parlab/harness/dataset_inputs.hpp"

namespace parlab::harness {
namespace {

std::string list_text(const std::vector<std::int64_t>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(values[i]);
  }
  return s + "]";
}

}  // namespace

std::vector<std::int64_t> read_shape(const std::filesystem::path& dir,
                                     std::initializer_list<ShapeEntry> entries,
                                     const char* generator) {
  const std::vector<std::int64_t> shape = read_array<std::int64_t>(dir, "shape");
  std::string names, ranges;
  for (const ShapeEntry& e : entries) {
    names += (names.empty() ? "" : ", ") + std::string(e.name);
    ranges += (ranges.empty() ? "" : ", ") + std::to_string(e.min) + " <= " + e.name +
              " <= " + std::to_string(e.max);
  }
  bool fits = shape.size() == entries.size();
  for (std::size_t i = 0; fits && i < shape.size(); ++i) {
    const ShapeEntry& e = entries.begin()[i];
    fits = shape[i] >= e.min && shape[i] <= e.max;
  }
  if (!fits) {
    throw DatasetError("'shape' must be [" + names + "] with " + ranges + ", got " +
                       list_text(shape) + " (was the dataset made by " + generator + "?)");
  }
  return shape;
}

void check_count(const std::string& name, std::size_t got, std::int64_t count,
                 const std::string& why) {
  if (count < 0 || got != static_cast<std::uint64_t>(count)) {
    throw DatasetError("'" + name + "' has " + std::to_string(got) + " elements, expected " +
                       std::to_string(count) + " (" + why + ")");
  }
}

}  // namespace parlab::harness
