#include "grading/sandbox_reach.hpp"

#include <sys/stat.h>

#include <cstdio>

#include "cli/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

void require_reachable_by_others(const fs::path& path, const std::string& role) {
  fs::path absolute = fs::absolute(path).lexically_normal();
  fs::path walked;
  for (const fs::path& part : absolute) {
    walked /= part;
    struct stat st{};
    if (::stat(walked.c_str(), &st) != 0) return;  // not created yet: we will create it 0755
    if (S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH)) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%03o", st.st_mode & 0777);
      throw EnvironmentError(role + " " + absolute.string() + " is not reachable by the "
                             "sandbox's unprivileged user: " + walked.string() + " has mode " +
                             mode + ". Use a folder others may enter (chmod o+x " +
                             walked.string() + ", or --work-dir elsewhere)");
    }
  }
}

}  // namespace parlab::grader
