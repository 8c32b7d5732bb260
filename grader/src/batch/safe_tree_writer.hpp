#pragma once
// Creates the files of one submission inside its own folder and nowhere else: every
// path is checked (entry_path.hpp), no write ever goes through a symlink, and the
// total size and number of entries are capped while writing (a header's size field is
// never trusted). Used for archives and for plain folders alike.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "process/unique_fd.hpp"

namespace parlab::grader::batch {

struct UnpackLimits {
  std::uint64_t max_bytes = 64ull << 20;  // total bytes of all files
  std::uint64_t max_entries = 5000;       // files, folders and links
};

// Every method returns "" on success, else a sentence saying what was refused; the
// writer is then unusable and the caller discards the whole folder.
class SafeTreeWriter {
 public:
  SafeTreeWriter(std::filesystem::path root, UnpackLimits limits)
      : root_(std::move(root)), limits_(limits) {}

  std::string add_directory(std::string_view name);
  std::string begin_file(std::string_view name);  // then write() ... end_file()
  std::string write(const void* data, std::size_t size);
  std::string end_file();
  std::string add_symlink(std::string_view name, std::string_view target);

  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t entries() const { return entries_; }

 private:
  std::string count_entry();
  // Creates the parent folders of `relative`, refusing to pass through a symlink or a file.
  std::string make_parents(const std::filesystem::path& relative);

  std::filesystem::path root_;
  UnpackLimits limits_;
  std::uint64_t bytes_ = 0;
  std::uint64_t entries_ = 0;
  process::UniqueFd file_;
  std::string file_name_;
};

}  // namespace parlab::grader::batch
