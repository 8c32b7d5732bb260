#pragma once
// One grading of one submission: build, generate data, run correctness tests against
// the reference, measure performance side by side, score. Student failures become
// TestResults; only grader-side problems throw (ToolError).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compile/toolchain.hpp"
#include "grading/device_choice.hpp"
#include "process/process_runner.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

struct GradeOptions {
  std::string lab_id;
  std::filesystem::path submission_dir;  // empty: the lab's skeleton
  bool reference_mode = false;           // grade reference/<lab> as if a submission
  // The graded track's folders (spec TrackSpec): its skeleton under labs/<lab>/, its
  // reference under reference/<lab>/ ("": the folder itself, the C++ track's).
  std::string skeleton_folder = "skeleton";
  std::string reference_folder;
  bool performance = true;               // false: correctness only (--no-perf)
  // --only: grade these tests (with the correctness tests they need); empty: all
  // (grading/test_selection).
  std::vector<std::string> only;
  std::optional<std::uint64_t> seed;     // fresh-data seed; random when empty
  std::filesystem::path work_root;       // builds, runs, caches live under here
  DeviceRequest device = DeviceRequest::automatic;  // GPU labs: where the tests run
  std::function<void(const std::string&)> log;  // progress lines (may be empty)
  // Lines always worth showing (a wait for another grading's lock), even without -v.
  std::function<void(const std::string&)> notice;
  // Called with the result so far after each step: what a stopped grading leaves
  // (cli/interrupt_guard writes it when grade is interrupted).
  std::function<void(const GradeResult&)> checkpoint;
  // Sandbox (docs/sandbox.md): the level asked for, and why bubblewrap is not used
  // under `auto` (empty when it is, or when off).
  std::string sandbox_level = "auto";
  std::string sandbox_fallback;
  bool keep_runs = false;                 // keep the run folders after the grading (debugging)
  std::uint64_t run_disk_quota_mb = 1024; // the submission's run folders together (root only)
};

// The submission folder the options name (skeleton/reference defaults resolved).
std::filesystem::path resolve_submission(const GradeOptions& options, const LabToolchain& lab);

GradeResult grade_submission(const GradeOptions& options, const LabSpec& lab,
                             const Toolchain& toolchain, ProcessRunner& runner);

// Exit code for a finished grading: 0 all passed, 1 something failed, 3 a GPU lab's
// tests could not run for want of a device (--device none).
int exit_code_for(const GradeResult& result);

}  // namespace parlab::grader
