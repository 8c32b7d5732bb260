#include "grading/reference_step.hpp"

namespace parlab::grader {

void run_reference_step(GradingContext& ctx, ModeExtras& extras,
                        const std::function<bool(const TestSpec&)>& graded) {
  for (const TestSpec& t : ctx.lab.tests) {
    if (!ctx.runs_here(t) || !graded(t)) continue;
    // A mode's own reference runs (sim mode: a substitute's outputs and counters).
    if (extras.prepare_reference(ctx, t)) continue;
    // A performance test that cannot be graded here needs no expected outputs.
    if (t.kind == TestKind::performance) {
      const auto why = ctx.not_measured_reason(t, {});
      if (why && why->status == TestStatus::not_graded) continue;
    }
    ctx.reference_run(t, t.task, ctx.resolve_params(t.params));
  }
}

}  // namespace parlab::grader
