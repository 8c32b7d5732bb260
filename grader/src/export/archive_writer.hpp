#pragma once
// Writes a .zip or .tar.gz (chosen by the file name) with libarchive, atomically: the
// archive is built beside `out` and renamed over it by finish(), so a failed export
// never leaves a half-written kit where a course would upload it.
#include <filesystem>
#include <string>
#include <string_view>

struct archive;

namespace parlab::grader {

class ArchiveWriter {
 public:
  // Throws UsageError for an unknown extension, EnvironmentError when it cannot write.
  explicit ArchiveWriter(std::filesystem::path out);
  ~ArchiveWriter();
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  // A regular file from disk, stored as `name` with mode 0755 or 0644 (its owner's x bit).
  void add_file(const std::string& name, const std::filesystem::path& from);
  void add_text(const std::string& name, std::string_view text, bool executable);
  void finish();

 private:
  void add(const std::string& name, std::string_view bytes, bool executable);
  std::filesystem::path out_;
  std::filesystem::path partial_;
  archive* archive_ = nullptr;
  bool finished_ = false;
};

}  // namespace parlab::grader
