#pragma once
// Whole-file writes that a reader never sees half done: write a temp file next to the
// target, then rename it over (rename is atomic within one directory).
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace parlab::harness::detail {

inline void write_file_atomically(const std::filesystem::path& target, std::string_view text) {
  std::filesystem::path temp = target;
  temp += ".tmp";
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot create " + temp.string());
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    std::remove(temp.c_str());
    throw std::runtime_error("cannot write " + temp.string() + " (disk full or file size limit?)");
  }
  if (std::rename(temp.c_str(), target.c_str()) != 0) {
    std::remove(temp.c_str());
    throw std::runtime_error("cannot rename " + temp.string() + " to " + target.string());
  }
}

}  // namespace parlab::harness::detail
