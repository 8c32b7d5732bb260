#pragma once
// `--sandbox auto|require|off` (docs/sandbox.md, "Sandbox levels"): builds the
// runner for a level, and turns "bubblewrap was required but does not work" into
// an environment error (exit 3) that says how to make it work.
#include <memory>
#include <string>

#include "process/sandboxed_runner.hpp"

namespace parlab::grader {

// Checks the word; throws UsageError.
std::string checked_sandbox_level(const std::string& level);

// The runner for `level`. bubblewrap is looked for at $PARLAB_BWRAP when set (tests
// make it unavailable that way), else /usr/bin/bwrap. Throws EnvironmentError when
// `require` cannot be met, with the fix for Docker, Podman and Apptainer.
std::unique_ptr<SandboxedRunner> make_runner_for_level(const std::string& level);

// What to do when bubblewrap does not work, for the error and the report note.
std::string bubblewrap_fix_hint();

}  // namespace parlab::grader
