#pragma once
// Tool errors (DESIGN invariant 5): thrown anywhere, caught once in main, printed as
// `grade: error: ...` with a documented exit code. A student's failure is never one.
#include <stdexcept>
#include <string>

namespace parlab::grader {

// Documented exit codes of `grade` (README, "Exit codes"; docs/scoring.md).
enum ExitCode : int {
  kExitAllPassed = 0,
  kExitSomeFailed = 1,
  kExitUsage = 2,        // bad command line, bad lab.toml, unknown lab
  kExitEnvironment = 3,  // no compiler, no GPU for a GPU-only test, toolchain missing
  kExitInternal = 4,     // a bug in the grader
  // Nothing failed, but a performance test could not be judged (machine busy, the
  // reference baseline failed): re-run the grading, on a quieter machine if it repeats.
  kExitInconclusive = 5,
};

class ToolError : public std::runtime_error {
 public:
  ToolError(ExitCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

class UsageError : public ToolError {
 public:
  explicit UsageError(const std::string& m) : ToolError(kExitUsage, m) {}
};

// A lab.toml problem; the message starts with "file:line:col:".
class SpecError : public ToolError {
 public:
  explicit SpecError(const std::string& m) : ToolError(kExitUsage, m) {}
};

class EnvironmentError : public ToolError {
 public:
  explicit EnvironmentError(const std::string& m) : ToolError(kExitEnvironment, m) {}
};

}  // namespace parlab::grader
