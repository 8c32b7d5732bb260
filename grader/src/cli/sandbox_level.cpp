#include "cli/sandbox_level.hpp"

#include <cstdlib>
#include <stdexcept>

#include "core/errors.hpp"

namespace parlab::grader {

std::string checked_sandbox_level(const std::string& level) {
  if (level == "auto" || level == "require" || level == "off") return level;
  throw UsageError("--sandbox must be auto, require or off, got '" + level + "'");
}

std::string bubblewrap_fix_hint() {
  return "install bubblewrap (apt-get install bubblewrap) and allow it namespaces: in Docker "
         "run the container with --security-opt systempaths=unconfined --security-opt "
         "seccomp=unconfined (or --privileged); in Podman with --security-opt unmask=ALL; "
         "under Apptainer/Singularity run with --userns (or --fakeroot) on a host with "
         "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1). "
         "Or accept the weaker sandbox knowingly with --sandbox auto";
}

std::unique_ptr<SandboxedRunner> make_runner_for_level(const std::string& level) {
  SandboxOptions options;
  options.use_bubblewrap = bubblewrap_mode_from_string(checked_sandbox_level(level));
  if (const char* path = std::getenv("PARLAB_BWRAP"); path && *path) options.bubblewrap_path = path;
  // Every child as nobody, as before the pool (debugging, and to show what the pool fixes).
  if (const char* off = std::getenv("PARLAB_NO_UID_POOL"); off && *off) options.use_uid_pool = false;
  try {
    return std::make_unique<SandboxedRunner>(options);
  } catch (const std::runtime_error& error) {
    const std::string what = error.what();
    if (what.rfind("bubblewrap was required", 0) != 0)
      throw EnvironmentError("cannot set up the sandbox: " + what);
    throw EnvironmentError(std::string("--sandbox require: ") + error.what() + ". To fix: " +
                           bubblewrap_fix_hint());
  }
}

}  // namespace parlab::grader
