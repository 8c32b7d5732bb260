#include "grading/gpu_extras.hpp"

#include "grading/gpu_sanitizer.hpp"

namespace parlab::grader {

void GpuExtras::before_tests(GradingContext& ctx, GradeResult& result) {
  if (ctx.toolchain.compute_sanitizer.empty())
    result.notes.push_back("this build's CUDA toolkit has no compute-sanitizer: GPU correctness tests "
                           "ran without its memory, race and barrier checks (docs/gpu.md)");
}

void GpuExtras::after_correctness(GradingContext& ctx, const TestSpec& t, const TaskRun&,
                                  TestResult& r, std::vector<std::string>&) {
  if (t.device == Device::gpu && t.visibility == Visibility::visible &&
      !ctx.toolchain.compute_sanitizer.empty() && r.status == TestStatus::passed) {
    ctx.log("compute-sanitizer: " + t.name);
    const SanitizerVerdict verdict = check_under_sanitizer(
        r, TaskInvocation{ctx.executable, t.task, ctx.resolve_params(t.params), ctx.dataset_dir(t.dataset), 0, 1,
                          ctx.limits(t)},
        ctx.submission_runs, ctx.toolchain.compute_sanitizer, run_slug(t.name));
    if (verdict.race) races_.note_race(t, *verdict.race);
  }
}

void GpuExtras::after_tests(GradingContext& ctx, std::map<std::string, TestResult>& done) {
  races_.apply(ctx.lab.tests, done);
}

}  // namespace parlab::grader
