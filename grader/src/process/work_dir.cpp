#include "process/work_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::system_category(), what);
}

void change_owner(const fs::path& path, const FileOwner& owner) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) throw_errno("lstat " + path.string());
  // A file with other hard links may be someone else's file linked in (by an
  // earlier run, or the grader sharing a dataset): leave its owner alone.
  if (!S_ISDIR(info.st_mode) && info.st_nlink > 1) return;
  if (::fchownat(AT_FDCWD, path.c_str(), owner.uid, owner.gid, AT_SYMLINK_NOFOLLOW) != 0)
    throw_errno("chown " + path.string());
}

}  // namespace

fs::path prepare_work_dir(const fs::path& dir, const std::optional<FileOwner>& owner) {
  fs::create_directories(dir);
  fs::path canonical = fs::canonical(dir);
  if (owner) {
    change_owner(canonical, *owner);
    // Private to its user: another grading's uid (or the reference's) cannot look in.
    if (::chmod(canonical.c_str(), 0700) != 0) throw_errno("chmod " + canonical.string());
    // The iterator does not descend into symlinked directories by default.
    for (const auto& entry : fs::recursive_directory_iterator(canonical))
      change_owner(entry.path(), *owner);
  }
  return canonical;
}

}  // namespace parlab::grader::process
