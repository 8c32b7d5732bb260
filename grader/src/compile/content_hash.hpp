#pragma once
// A 64-bit FNV-1a hash for cache keys (datasets, builds, reference outputs). Not
// cryptographic: keys only decide whether to reuse our own files.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace parlab::grader {

class ContentHash {
 public:
  ContentHash& add(std::string_view bytes);
  ContentHash& add(std::uint64_t value);
  // Adds the file's bytes (throws std::runtime_error when unreadable).
  ContentHash& add_file(const std::filesystem::path& file);
  // Adds size and modification time: cheap identity for big build outputs.
  ContentHash& add_file_stamp(const std::filesystem::path& file);
  std::uint64_t value() const { return h_; }
  std::string hex() const;

 private:
  std::uint64_t h_ = 1469598103934665603ull;
};

}  // namespace parlab::grader
