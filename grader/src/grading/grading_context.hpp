#pragma once
// What every step of one grading reads (grading/grade_session): the options, the lab,
// the runners, the data and the device chosen; and the small lookups the steps share
// (a test's parameters, dataset, limits, expected outputs, its empty result).
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "grading/dataset_cache.hpp"
#include "grading/grade_session.hpp"
#include "grading/lab_runner.hpp"
#include "grading/performance_gate.hpp"
#include "grading/phase_clock.hpp"
#include "grading/reference_outputs.hpp"

namespace parlab::grader {

// A test's name as a run folder's name ("Sum, 4 workers" -> "sum-4-workers").
std::string run_slug(const std::string& test_name);

class GradingContext {
 public:
  GradingContext(const GradeOptions& o, const LabSpec& lab, const Toolchain& tc, ProcessRunner& runner);
  GradingContext(const GradingContext&) = delete;
  GradingContext& operator=(const GradingContext&) = delete;

  const GradeOptions& options;
  LabSpec lab;  // as graded here: in the simulator, with its stand-in datasets (choose_device)
  const LabToolchain& labtc;
  const Toolchain& toolchain;
  ProcessRunner& runner;
  const std::filesystem::path work;  // the submission's folder under the work root
  // This grading's runs, fresh data and probes; removed at the end.
  const std::filesystem::path grading_dir;
  LabRunner submission_runs;
  LabRunner reference_runs;  // another identity (uid): the submission cannot read what it wrote
  std::uint64_t fresh_seed = 0;
  int cores = 1;
  std::filesystem::path executable;    // the submission's, once built
  std::filesystem::path expected_exe;  // where expected outputs come from (GPU labs: the CPU reference)
  DeviceInfo device;                   // GPU labs: where the tests run, for the report
  DeviceMode mode = DeviceMode::host;  // the same, for the policy
  PhaseClock phases;                   // where the grading's time goes (result.json)

  void log(const std::string& line) const;
  std::filesystem::path runs_root() const { return grading_dir / "runs"; }
  Params resolve_params(const Params& p) const;  // "cores" -> this grading's cores
  std::filesystem::path dataset_dir(const std::string& id);
  std::string dataset_label(const std::string& id) const;
  ResourceLimits limits(const TestSpec& t) const;
  // The expected outputs of `task` on `t`'s dataset (from expected_exe, run once).
  const ExpectedOutputs& reference_run(const TestSpec& t, const std::string& task, const Params& params);
  // Without a GPU (--device none, or auto finding neither GPU nor simulator), GPU tests
  // are skipped; a GPU lab's CPU tests still run.
  bool runs_here(const TestSpec& t) const;
  TestResult base_result(const TestSpec& t) const;
  TestResult skipped_without_gpu(const TestSpec& t) const;
  std::optional<NotMeasured> not_measured_reason(const TestSpec& t,
                                                 const std::map<std::string, TestResult>& done) const;

 private:
  DatasetCache cache_;
  DatasetCache fresh_cache_;
  ReferenceOutputs reference_outputs_;
};

}  // namespace parlab::grader
