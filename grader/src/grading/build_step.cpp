#include "grading/build_step.hpp"

#include "grading/folder_lock.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// A build reused from an earlier grading of the same submission belongs to that
// grading's uid (its folder 0700, process/work_dir.cpp); this grading's uid must be
// able to enter it to run the program. Entering only: nothing there is listable.
void open_cached_build_to_this_grading(const fs::path& build_root) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(build_root, error)) {
    std::error_code ignored;
    if (entry.is_directory(ignored) && !entry.is_symlink(ignored))
      fs::permissions(entry.path(), fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add, ignored);
  }
}

}  // namespace

BuildTarget build_target(Device lab_kind, DeviceMode mode) {
  if (lab_kind != Device::gpu) return BuildTarget::host;
  // Without a GPU (sim, or none for a lab's CPU tests) g++ builds the host variant.
  return mode == DeviceMode::gpu ? BuildTarget::cuda : BuildTarget::sim;
}

BuiltProgram build_step(GradingContext& ctx, const fs::path& submission) {
  BuiltProgram built;
  {
    // Two gradings of one submission build one at a time; the second reuses the build.
    FolderLock build_lock(ctx.work / "build.lock", ctx.options.notice,
                          "another grading of this submission is building it");
    built = build_submission(ctx.lab, ctx.toolchain, submission, ctx.work / "build", ctx.runner,
                             ctx.lab.track == Track::python ? BuildTarget::python
                                                            : build_target(ctx.lab.kind, ctx.mode));
  }
  open_cached_build_to_this_grading(ctx.work / "build");
  return built;
}

std::vector<TestResult> not_compiled_results(const GradingContext& ctx) {
  std::vector<TestResult> results;
  for (const TestSpec& t : ctx.lab.tests) {
    // What this machine or mode could not have graded anyway stays out of the total, so
    // a build failure is scored out of the same points as a graded upload here.
    if (!ctx.runs_here(t)) {
      results.push_back(ctx.skipped_without_gpu(t));
      continue;
    }
    if (t.kind == TestKind::performance) {
      if (auto why = ctx.not_measured_reason(t, {}); why && why->status == TestStatus::not_graded) {
        TestResult r = ctx.base_result(t);
        r.status = TestStatus::not_graded;
        r.outcome = RunOutcome::not_run;
        r.message = why->reason;
        results.push_back(r);
        continue;
      }
    }
    TestResult r = ctx.base_result(t);
    r.status = TestStatus::failed;
    r.outcome = RunOutcome::not_run;
    r.message = "not run: the submission did not compile (see the build errors above)";
    results.push_back(r);
  }
  return results;
}

}  // namespace parlab::grader
