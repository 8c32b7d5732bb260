#pragma once
// Compiles a submission into its own executable: only the student's files are
// compiled; the grader-owned driver and the harness are prebuilt libraries linked in.
// The compiler runs through the ProcessRunner (sandboxed, with limits) because the
// source is untrusted too.
#include <filesystem>

#include "compile/compile_steps.hpp"
#include "compile/toolchain.hpp"
#include "process/process_runner.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

struct BuiltProgram {
  BuildResult result;
  std::filesystem::path executable;  // valid when result.ok
  bool cached = false;               // identical sources were built before
};

// `work_dir` is this submission's private build folder (created); `check_memo` the
// work root's folder of compile checks that passed (compile/compile_check_memo; empty:
// none kept), whose `views` folder keeps the sources whose compiled views agreed
// (compile/compiled_views_memo). Throws ToolError only for grader-side problems (no
// compiler); a student's mistake is a failed BuildResult with diagnostics.
BuiltProgram build_submission(const LabSpec& lab, const Toolchain& toolchain,
                              const std::filesystem::path& submission_dir,
                              const std::filesystem::path& work_dir, ProcessRunner& runner,
                              BuildTarget target = BuildTarget::host,
                              const std::filesystem::path& check_memo = {});

}  // namespace parlab::grader
