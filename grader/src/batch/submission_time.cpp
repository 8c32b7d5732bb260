#include "batch/submission_time.hpp"

#include <sys/stat.h>

#include <ctime>
#include <filesystem>
#include <system_error>

#include "batch/archive_entry_times.hpp"
#include "batch/course_deadlines.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

// The file's own modification time (lstat: a link is not followed).
std::optional<std::int64_t> mtime_of(const fs::path& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0) return std::nullopt;
  return static_cast<std::int64_t>(st.st_mtime);
}

// The newest regular file under `dir`, links not followed.
std::optional<std::int64_t> newest_file_time(const fs::path& dir) {
  std::optional<std::int64_t> newest;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
    const std::optional<std::int64_t> s = mtime_of(it->path());
    if (s && (!newest || *s > *newest)) newest = s;
  }
  return newest;
}

}  // namespace

SubmissionTime submission_time(const Student& student) {
  if (student.submitted_at) {
    if (student.submitted_at->empty()) return {std::nullopt, "roster submitted_at is empty"};
    return {parse_timestamp(*student.submitted_at), "roster submitted_at"};
  }
  if (student.source.kind == SourceKind::folder) {
    const std::optional<std::int64_t> t = newest_file_time(student.source.path);
    if (t) return {t, "newest file in the folder"};
    return {std::nullopt, "the folder holds no file with a time"};
  }
  // The packing time inside, else the file's own (reset by any copy without -p).
  if (const std::optional<std::int64_t> inside = newest_archive_entry_time(student.source.path)) {
    return {inside, "newest entry in the archive"};
  }
  const std::optional<std::int64_t> t = mtime_of(student.source.path);
  if (!t) return {std::nullopt, "the archive's time cannot be read"};
  return {t, "archive file time (its entries carry no time)"};
}

std::string format_utc(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace parlab::grader::batch
