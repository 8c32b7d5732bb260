#pragma once
// Shared helpers for the batch tests: scratch folders and archives written with
// libarchive, so every hostile layout can be built exactly.
#include <filesystem>
#include <string>
#include <vector>

#include "scratch_dir.hpp"

namespace parlab::grader::batch::testing {

using parlab::testing::ScratchDir;  // tests/unit/support/scratch_dir.hpp

struct ArchiveEntry {
  enum class Type { file, dir, symlink, hardlink } type = Type::file;
  std::string name;
  std::string content;  // file data, or the link target
  long long mtime = 0;  // seconds since the epoch; 0: the archive stores no time
};

// format: "zip", "tar", "tar.gz"
void write_archive(const std::filesystem::path& file, const std::string& format,
                   const std::vector<ArchiveEntry>& entries);

void write_text(const std::filesystem::path& file, const std::string& text);
std::string read_text(const std::filesystem::path& file);

}  // namespace parlab::grader::batch::testing
