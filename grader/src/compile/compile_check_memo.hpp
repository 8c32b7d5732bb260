#pragma once
// A compile check that passed once is not run again on the same inputs. nvcc's check of
// a sim build's CUDA sources (compile/compile_steps, add_nvcc_check) takes seconds per
// file and decides nothing the simulator runs; a student who changes one file of three,
// or a class whose submissions share the skeleton's other files, would otherwise pay for
// every file at every grading. The memo is a folder of empty files named by the SHA-256
// of everything the check's verdict depends on (compile_check_key); the grader writes it
// after the sandboxed check returns, under the work root, where no run can write. Only
// passes are kept: a failing check runs again, so its message is always fresh.
#include <filesystem>
#include <string>
#include <vector>

#include "compile/compile_steps.hpp"

namespace parlab::grader {

class CompileCheckMemo {
 public:
  // `folder` is made on the first pass kept; an empty path remembers nothing.
  explicit CompileCheckMemo(std::filesystem::path folder) : folder_(std::move(folder)) {}

  bool passed_before(const std::string& key) const;
  // Best effort: a memo that cannot be written only costs the check again.
  void remember_passed(const std::string& key) const;

 private:
  std::filesystem::path folder_;
};

// What `step`'s verdict on its checked source (step.checks_source, a file staged under
// `stage`) depends on, as 64 hex digits: the program (its path, size and time), the
// arguments (the stage folder written as such, so two submissions' stages agree), the
// checked file, every staged header and every staged file the checked one names, and
// the headers of `include_dirs` (the lab's folder, the harness's), each with its
// relative path. Throws std::runtime_error when a file cannot be read.
std::string compile_check_key(const CompileStep& step, const std::filesystem::path& stage,
                              const std::vector<std::string>& staged,
                              const std::vector<std::filesystem::path>& include_dirs);

// What the agreement of one staged file's compiled views (compile/compiled_views: the
// simulator's and nvcc's preprocessing, `view_steps`, every step whose views_of names
// that file) depends on, as 64 hex digits: each step as compile_check_key reads it, and
// every file under `simulator_dirs` whatever its name (the simulator's headers, some
// without an extension, decide its view's groups). Only an agreement is remembered, in
// its own memo: a difference is found again, with its message, at every build. Throws
// std::runtime_error when a file cannot be read.
std::string compiled_views_key(const std::vector<CompileStep>& view_steps,
                               const std::filesystem::path& stage,
                               const std::vector<std::string>& staged,
                               const std::vector<std::filesystem::path>& include_dirs,
                               const std::vector<std::filesystem::path>& simulator_dirs);

}  // namespace parlab::grader
