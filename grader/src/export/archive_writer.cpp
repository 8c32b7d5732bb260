#include "export/archive_writer.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

ArchiveWriter::ArchiveWriter(fs::path out) : out_(std::move(out)) {
  const std::string name = out_.filename().string();
  const bool zip = ends_with(name, ".zip");
  const bool tar_gz = ends_with(name, ".tar.gz") || ends_with(name, ".tgz");
  if (!zip && !tar_gz) throw UsageError("--out " + out_.string() + ": the name must end in .zip, .tar.gz or .tgz");
  partial_ = out_;
  partial_ += ".partial-" + std::to_string(::getpid());
  archive_ = archive_write_new();
  if (zip) {
    archive_write_set_format_zip(archive_);
  } else {
    archive_write_set_format_pax_restricted(archive_);
    archive_write_add_filter_gzip(archive_);
  }
  if (archive_write_open_filename(archive_, partial_.c_str()) != ARCHIVE_OK)
    throw EnvironmentError("cannot write " + partial_.string() + ": " + archive_error_string(archive_));
}

ArchiveWriter::~ArchiveWriter() {
  if (archive_ != nullptr) archive_write_free(archive_);
  if (!finished_) {
    std::error_code ignored;
    fs::remove(partial_, ignored);
  }
}

void ArchiveWriter::add_file(const std::string& name, const fs::path& from) {
  std::ifstream in(from, std::ios::binary);
  if (!in) throw EnvironmentError("cannot read " + from.string());
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const bool executable = (fs::status(from).permissions() & fs::perms::owner_exec) != fs::perms::none;
  add(name, bytes.str(), executable);
}

void ArchiveWriter::add_text(const std::string& name, std::string_view text, bool executable) {
  add(name, text, executable);
}

void ArchiveWriter::add(const std::string& name, std::string_view bytes, bool executable) {
  archive_entry* entry = archive_entry_new();
  archive_entry_set_pathname(entry, name.c_str());
  archive_entry_set_filetype(entry, AE_IFREG);
  archive_entry_set_perm(entry, executable ? 0755 : 0644);
  archive_entry_set_size(entry, static_cast<la_int64_t>(bytes.size()));
  archive_entry_set_mtime(entry, ::time(nullptr), 0);
  bool ok = archive_write_header(archive_, entry) == ARCHIVE_OK &&
            (bytes.empty() || archive_write_data(archive_, bytes.data(), bytes.size()) ==
                                  static_cast<la_ssize_t>(bytes.size()));
  archive_entry_free(entry);
  if (!ok) throw EnvironmentError("cannot add " + name + " to " + out_.string() + ": " + archive_error_string(archive_));
}

void ArchiveWriter::finish() {
  if (archive_write_close(archive_) != ARCHIVE_OK)
    throw EnvironmentError("cannot finish " + out_.string() + ": " + archive_error_string(archive_));
  archive_write_free(archive_);
  archive_ = nullptr;
  std::error_code error;
  fs::rename(partial_, out_, error);
  if (error) throw EnvironmentError("cannot rename " + partial_.string() + " to " + out_.string() + ": " + error.message());
  finished_ = true;
}

}  // namespace parlab::grader
