#include "cli/work_root.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// An environment variable holding an absolute path (the XDG rule: relative ones are ignored).
std::optional<fs::path> absolute_env_path(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0' || value[0] != '/') return std::nullopt;
  return fs::path(value);
}

}  // namespace

fs::path default_work_root(const fs::path& build_dir) {
  if (::geteuid() == 0) return build_dir / "grade-work";
  if (std::optional<fs::path> cache = absolute_env_path("XDG_CACHE_HOME")) return *cache / "parlab";
  if (std::optional<fs::path> home = absolute_env_path("HOME")) return *home / ".cache" / "parlab";
  return build_dir / "grade-work";
}

void require_writable_work_root(const fs::path& work_root) {
  const std::string fix = ": give --work-dir a folder you can write (or set XDG_CACHE_HOME)";
  std::error_code ec;
  fs::create_directories(work_root, ec);
  if (ec) {
    throw EnvironmentError("work dir " + work_root.string() + " cannot be created (" + ec.message() + ")" + fix);
  }
  if (!fs::is_directory(work_root, ec)) {
    throw EnvironmentError("work dir " + work_root.string() + " is not a folder" + fix);
  }
  if (::access(work_root.c_str(), W_OK | X_OK) != 0) {
    throw EnvironmentError("work dir " + work_root.string() + " is not writable (" +
                           std::strerror(errno) + ")" + fix);
  }
}

}  // namespace parlab::grader
