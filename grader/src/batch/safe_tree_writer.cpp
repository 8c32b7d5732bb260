#include "batch/safe_tree_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "batch/entry_path.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string system_problem(const std::string& what, const fs::path& p) {
  return "cannot " + what + " '" + p.string() + "': " + std::strerror(errno);
}

}  // namespace

std::string SafeTreeWriter::count_entry() {
  if (++entries_ > limits_.max_entries) {
    return "it holds more than " + std::to_string(limits_.max_entries) + " entries (the limit)";
  }
  return "";
}

std::string SafeTreeWriter::make_parents(const fs::path& relative) {
  fs::path here = root_;
  fs::path shown;
  for (const fs::path& part : relative.parent_path()) {
    here /= part;
    shown /= part;
    struct stat st {};
    if (::lstat(here.c_str(), &st) != 0) {
      if (errno != ENOENT) return system_problem("inspect", shown);
      if (::mkdir(here.c_str(), 0755) != 0) return system_problem("create folder", shown);
      continue;
    }
    if (S_ISLNK(st.st_mode)) {
      return "entry '" + relative.string() + "' goes through the symlink '" + shown.string() + "'";
    }
    if (!S_ISDIR(st.st_mode)) {
      return "entry '" + relative.string() + "' is inside '" + shown.string() + "', which is a file";
    }
  }
  return "";
}

std::string SafeTreeWriter::add_directory(std::string_view name) {
  EntryPath p = check_entry_path(name);
  if (!p.ok()) return p.problem;
  if (p.is_root()) return "";  // the submission folder itself exists already
  if (std::string e = count_entry(); !e.empty()) return e;
  if (std::string e = make_parents(p.relative / "x"); !e.empty()) return e;
  return "";
}

std::string SafeTreeWriter::begin_file(std::string_view name) {
  EntryPath p = check_entry_path(name);
  if (!p.ok()) return p.problem;
  if (p.is_root()) return "entry '" + std::string(name) + "' is a file named like the folder itself";
  if (std::string e = count_entry(); !e.empty()) return e;
  if (std::string e = make_parents(p.relative); !e.empty()) return e;
  const fs::path target = root_ / p.relative;
  // O_NOFOLLOW: a link left by an earlier entry with this name is refused, not followed.
  file_.reset(::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!file_.valid()) {
    return errno == ELOOP ? "entry '" + p.relative.string() + "' would write through a symlink"
                          : system_problem("create", p.relative);
  }
  file_name_ = p.relative.string();
  return "";
}

std::string SafeTreeWriter::write(const void* data, std::size_t size) {
  bytes_ += size;
  if (bytes_ > limits_.max_bytes) {
    return "it unpacks to more than " + mib(limits_.max_bytes) + " (the limit)";
  }
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(file_.get(), p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return system_problem("write", file_name_);
    }
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return "";
}

std::string SafeTreeWriter::end_file() {
  if (::close(file_.release()) != 0) return system_problem("write", file_name_);
  return "";
}

std::string SafeTreeWriter::add_symlink(std::string_view name, std::string_view target) {
  EntryPath p = check_entry_path(name);
  if (!p.ok()) return p.problem;
  if (p.is_root()) return "entry '" + std::string(name) + "' is a symlink replacing the folder itself";
  if (std::string why = symlink_target_problem(target); !why.empty()) {
    return "symlink '" + p.relative.string() + "' points outside the submission (" + why + ")";
  }
  if (std::string e = count_entry(); !e.empty()) return e;
  if (std::string e = make_parents(p.relative); !e.empty()) return e;
  const fs::path link = root_ / p.relative;
  ::unlink(link.c_str());  // a duplicate entry replaces the earlier one (never follows it)
  if (::symlink(std::string(target).c_str(), link.c_str()) != 0) {
    return system_problem("create symlink", p.relative);
  }
  return "";
}

}  // namespace parlab::grader::batch
