#pragma once
// Generates datasets on the trusted side and caches them by (generator, params,
// seed). Datasets with a fixed seed live in a shared cache; fresh-seed data lives in
// the grading's own folder and goes with it.
#include <cstdint>
#include <filesystem>
#include <string>

#include "spec/lab_spec.hpp"

namespace parlab::grader {

class DatasetCache {
 public:
  explicit DatasetCache(std::filesystem::path root) : root_(std::move(root)) {}

  // The folder holding the dataset's files, generating it if needed (into a temp
  // folder renamed into place, so a crash never leaves half a dataset behind).
  // Throws SpecError for an unknown generator or a bad parameter.
  std::filesystem::path get(const DatasetSpec& spec, std::uint64_t seed);

  // Cache key, e.g. "sensor_logs-1f3a...": stable for the same inputs.
  static std::string key(const DatasetSpec& spec, std::uint64_t seed);

 private:
  std::filesystem::path root_;
};

}  // namespace parlab::grader
