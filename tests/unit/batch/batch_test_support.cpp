#include "batch_test_support.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace parlab::grader::batch::testing {

void write_archive(const fs::path& file, const std::string& format, const std::vector<ArchiveEntry>& entries) {
  archive* a = archive_write_new();
  if (format == "zip") {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
    if (format == "tar.gz") archive_write_add_filter_gzip(a);
  }
  if (archive_write_open_filename(a, file.c_str()) != ARCHIVE_OK) {
    throw std::runtime_error(archive_error_string(a));
  }
  for (const ArchiveEntry& e : entries) {
    archive_entry* en = archive_entry_new();
    archive_entry_set_pathname(en, e.name.c_str());
    archive_entry_set_perm(en, 0644);
    if (e.mtime != 0) archive_entry_set_mtime(en, static_cast<time_t>(e.mtime), 0);
    switch (e.type) {
      case ArchiveEntry::Type::file:
        archive_entry_set_filetype(en, AE_IFREG);
        archive_entry_set_size(en, static_cast<la_int64_t>(e.content.size()));
        break;
      case ArchiveEntry::Type::dir:
        archive_entry_set_filetype(en, AE_IFDIR);
        archive_entry_set_perm(en, 0755);
        break;
      case ArchiveEntry::Type::symlink:
        archive_entry_set_filetype(en, AE_IFLNK);
        archive_entry_set_symlink(en, e.content.c_str());
        break;
      case ArchiveEntry::Type::hardlink:
        archive_entry_set_filetype(en, AE_IFREG);
        archive_entry_set_hardlink(en, e.content.c_str());
        break;
    }
    archive_write_header(a, en);
    if (e.type == ArchiveEntry::Type::file) archive_write_data(a, e.content.data(), e.content.size());
    archive_entry_free(en);
  }
  archive_write_close(a);
  archive_write_free(a);
}

void write_text(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace parlab::grader::batch::testing
