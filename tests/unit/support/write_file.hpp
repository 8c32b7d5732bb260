#pragma once
// A test's input file written in one call, its folders made first.
#include <filesystem>
#include <fstream>
#include <string>

namespace parlab::testing {

inline void write_file(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

}  // namespace parlab::testing
