#include "grading/reference_seal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.hpp"

namespace parlab::grader {
namespace {

namespace fs = std::filesystem;

void add_if_present(std::vector<fs::path>& list, const fs::path& path) {
  std::error_code error;
  if (!path.empty() && fs::exists(fs::symlink_status(path, error))) list.push_back(path);
}

[[noreturn]] void cannot_seal(const fs::path& path, const char* what) {
  throw EnvironmentError("cannot close " + path.string() + " to the submission's uid (" + what + ": " +
                         std::strerror(errno) + "); a submission could run or read it");
}

// Opened without following a link, changed through the descriptor: a link put in
// the build tree must not make root change its target. The file or folder gets the
// submissions' group and no group permission; owner and others keep theirs.
void seal(const fs::path& path, bool executable, gid_t submissions_gid) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (executable ? 0 : O_DIRECTORY));
  if (fd < 0) cannot_seal(path, "open");
  struct stat info {};
  bool ok = ::fstat(fd, &info) == 0 && (!executable || S_ISREG(info.st_mode)) &&
            ::fchown(fd, static_cast<uid_t>(-1), submissions_gid) == 0 &&
            ::fchmod(fd, info.st_mode & 07707) == 0;
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (!ok) cannot_seal(path, executable ? "chgrp/chmod of an executable" : "chgrp/chmod of a folder");
}

}  // namespace

InstructorFiles instructor_files(const Toolchain& toolchain) {
  InstructorFiles files;
  for (const auto& [id, lab] : toolchain.labs) {
    add_if_present(files.executables, lab.reference_exe);
    add_if_present(files.executables, lab.cpu_reference_exe);
    add_if_present(files.executables, lab.sim_reference_exe);
    add_if_present(files.executables, lab.python_reference_exe);
    // The Python reference's program folder holds its source (solution/file_stats.py).
    if (!lab.python_reference_exe.empty()) add_if_present(files.folders, lab.python_reference_exe.parent_path());
    add_if_present(files.folders, lab.reference_dir);
  }
  // The reference sources and what the build made of them: objects, rewritten sources.
  add_if_present(files.folders, toolchain.source_dir / "reference");
  add_if_present(files.folders, toolchain.build_dir / "labs" / "CMakeFiles");
  add_if_present(files.folders, toolchain.build_dir / "labs" / "sim-rewritten");
  add_if_present(files.folders, toolchain.build_dir / "tests" / "CMakeFiles");
  add_if_present(files.folders, toolchain.build_dir / "bench" / "CMakeFiles");
  return files;
}

void seal_instructor_files(const InstructorFiles& files, gid_t submissions_gid) {
  for (const fs::path& exe : files.executables) seal(exe, true, submissions_gid);
  for (const fs::path& folder : files.folders) seal(folder, false, submissions_gid);
}

}  // namespace parlab::grader
