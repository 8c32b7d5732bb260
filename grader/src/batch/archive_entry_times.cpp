#include "batch/archive_entry_times.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <memory>

#include "batch/submission_unpacker.hpp"

namespace parlab::grader::batch {
namespace {

struct ReadFree {
  void operator()(archive* a) const { archive_read_free(a); }
};

}  // namespace

std::optional<std::int64_t> newest_archive_entry_time(const std::filesystem::path& archive_path) {
  std::unique_ptr<archive, ReadFree> a(archive_read_new());
  accept_submission_formats(a.get());
  if (archive_read_open_filename(a.get(), archive_path.c_str(), 1 << 16) != ARCHIVE_OK) return std::nullopt;
  std::optional<std::int64_t> newest;
  for (;;) {
    archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc < ARCHIVE_WARN) return std::nullopt;  // a corrupt archive is rejected; its times mean nothing
    if (archive_entry_filetype(entry) == AE_IFREG && archive_entry_mtime_is_set(entry)) {
      const std::int64_t t = archive_entry_mtime(entry);
      if (!newest || t > *newest) newest = t;
    }
    archive_read_data_skip(a.get());
  }
  return newest;
}

}  // namespace parlab::grader::batch
