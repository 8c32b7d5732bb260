#include "grading/sandbox_reach.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <optional>

#include "core/errors.hpp"
#include "process/reach_bridge.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

void require_reachable_by_others(const fs::path& path, const std::string& role) {
  fs::path absolute = fs::absolute(path).lexically_normal();
  fs::path walked;
  for (auto part = absolute.begin(); part != absolute.end(); ++part) {
    walked /= *part;
    struct stat st{};
    if (::stat(walked.c_str(), &st) != 0) return;  // not created yet: we will create it 0755
    if (!S_ISDIR(st.st_mode) || (st.st_mode & S_IXOTH)) continue;
    // A private parent (/root, a 0700 home): bridged in the children's own view when
    // the grader is root. The path itself being private cannot be bridged.
    std::optional<std::string> why_not = "it is the " + role + " itself";
    if (std::next(part) != absolute.end()) why_not = process::add_reach_bridge(walked, walked / *std::next(part));
    if (!why_not) continue;
    char mode[8];
    std::snprintf(mode, sizeof mode, "%03o", st.st_mode & 0777);
    throw EnvironmentError(role + " " + absolute.string() + " is not reachable by the "
                           "sandbox's unprivileged user: " + walked.string() + " has mode " +
                           mode + " (" + *why_not + "). Use a folder others may enter (chmod o+x " +
                           walked.string() + ", or --work-dir elsewhere)");
  }
}

}  // namespace parlab::grader
