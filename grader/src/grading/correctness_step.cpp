#include "grading/correctness_step.hpp"

#include <chrono>

#include "grading/gpu_figures.hpp"
#include "grading/run_feedback.hpp"

namespace parlab::grader {

CorrectnessRun run_correctness(GradingContext& ctx, const TestSpec& t) {
  TestResult r = ctx.base_result(t);
  auto t0 = std::chrono::steady_clock::now();
  Params params = ctx.resolve_params(t.params);
  const ExpectedOutputs& expected = ctx.reference_run(t, t.task, params);
  TaskInvocation inv{ctx.executable, t.task, params, ctx.dataset_dir(t.dataset), t.warmup, t.repeat,
                     ctx.limits(t)};
  TaskRun got = ctx.submission_runs.run(inv, run_slug(t.name));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!got.ok()) {
    fail_from_run(r, got);
    return {r, got};
  }
  r.outcome = RunOutcome::ok;
  r.stdout_tail = output_tail(got.run.stdout_text, got.run.stdout_truncated);
  r.stderr_tail = output_tail(got.run.stderr_text, got.run.stderr_truncated);
  r.phases = gpu_phases(ctx.mode, t, got);
  try {
    apply_comparison(r, t, compare_outputs(expected.outputs, LabRunner::outputs(got), t.compare));
  } catch (const harness::OutputFormatError& e) {
    r.status = TestStatus::failed;
    r.outcome = RunOutcome::bad_output;
    r.message = std::string("unreadable output: ") + e.what();
  }
  return {r, got};
}

void apply_comparison(TestResult& r, const TestSpec& t, const CompareOutcome& cmp) {
  if (cmp.ok) {
    r.status = TestStatus::passed;
    r.points = t.points;
    r.message = "all outputs match";
    return;
  }
  r.status = TestStatus::failed;
  if (t.visibility == Visibility::hidden) {
    // Hidden data stays hidden: say where, not what.
    r.message = cmp.mismatch ? "wrong result on hidden data (first difference in '" +
                                   cmp.mismatch->array + "'); the visible tests exercise the "
                                   "same rules"
                             : "wrong result on hidden data: " + cmp.message;
  } else {
    r.message = cmp.message;
    r.mismatch = cmp.mismatch;
  }
}

}  // namespace parlab::grader
