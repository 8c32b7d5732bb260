#include "grading/sim_extras.hpp"

#include <chrono>

#include "compare/comparator.hpp"
#include "core/errors.hpp"
#include "grading/child_run_files.hpp"
#include "grading/fault_line.hpp"
#include "grading/kernel_lock_support.hpp"
#include "grading/run_feedback.hpp"
#include "grading/sim_check_step.hpp"
#include "grading/sealed_report.hpp"
#include "grading/sim_mode.hpp"
#include "grading/unsupported_feature.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

TestSpec sim_check_test(const TestSpec& t) {
  TestSpec small = t;
  small.dataset = t.sim_check->dataset;
  small.warmup = 0;
  small.repeat = 1;
  return small;
}

void SimExtras::prepare(GradingContext& ctx, GradeResult& result) {
  result.notes.push_back(sim_mode_note(ctx.device.detail));
  if (std::string gaps = lock_gap_note(missing_lock_features()); !gaps.empty())
    result.notes.push_back(gaps);
  std::map<std::string, std::string> env = sim_child_environment(ctx.cores);
  ctx.submission_runs.set_fresh_sim_seeds(true);
  ctx.reference_runs.set_fresh_sim_seeds(true);
  ctx.submission_runs.set_code_places_tool(ctx.toolchain.sim.code_places_tool);
  ctx.reference_runs.set_code_places_tool(ctx.toolchain.sim.code_places_tool);
  // One sample seed per grading: the counters of the submission's runs and of the
  // reference's come from the same blocks (comparable), which no run can know.
  env["PARLAB_SIM_SAMPLE_SEED"] = fresh_sim_seed();
  ctx.submission_runs.set_extra_env(env);
  // The reference runs in the simulator only for its counters, which the race check
  // does not change; its findings are never read, and the check is most of a run's time.
  // Its runs for expected outputs count nothing; those for counters ask for them.
  env["PARLAB_SIM_RACE_CHECK"] = "0";
  env["PARLAB_SIM_COUNTERS"] = "0";
  ctx.reference_runs.set_extra_env(env);
}

void SimExtras::before_tests(GradingContext&, GradeResult&) { reruns_wanted_ = order_reruns(); }

// A sim-mode substitute: the reference's outputs and counters on its small dataset.
bool SimExtras::prepare_reference(GradingContext& ctx, const TestSpec& t) {
  if (t.kind == TestKind::performance && grades_performance(t)) {
    const auto why = ctx.not_measured_reason(t, {});
    if (why && why->status == TestStatus::not_graded) return true;
    ctx.reference_run(sim_check_test(t), t.task, ctx.resolve_params(t.params));
    if (counters_on(ctx))
      reference_counters_[t.name] = reference_counters_on(ctx, t, t.sim_check->dataset, true);
    return true;
  }
  // A correctness test's reference counters are counted later, only if a hint needs them
  // (hint_counters_source): the grading's one sample seed makes them the same then.
  return false;
}

// The reference's counters on the test's data, counted at the first call (a run of the
// reference, charged to the reference runs) and kept; empty where counters are off.
ReferenceCountersSource SimExtras::hint_counters_source(GradingContext& ctx, const TestSpec& t) {
  if (t.device != Device::gpu || !counters_on(ctx)) return {};
  return [this, &ctx, &t]() -> const std::optional<CounterTotals>* {
    auto known = reference_hint_counters_.find(t.name);
    if (known == reference_hint_counters_.end()) {
      const PhaseScope in_reference(ctx.phases, GradingPhase::reference_runs);
      known = reference_hint_counters_.emplace(t.name, reference_counters_on(ctx, t, t.dataset, false)).first;
    }
    return &known->second;
  };
}

// Re-runs in other orders, the same settings otherwise: no run is special. Then the
// findings of every run of the test. A run the simulator stopped at a fault: its line.
void SimExtras::after_correctness(GradingContext& ctx, const TestSpec& t, const TaskRun& run,
                                  TestResult& r, std::vector<std::string>& notes) {
  const std::string slug = run_slug(t.name);
  if (!run.ok() && !leave_out_unsupported_feature(run, r)) add_fault_place(ctx, run, r);
  std::vector<std::string> reruns;
  for (int n = 1; n <= reruns_wanted_ && t.device == Device::gpu && r.status == TestStatus::passed; ++n) {
    const ReorderedRun rerun = run_in_another_order(ctx, t, n);
    if (apply_schedule_check(r, run.sim_seed, rerun, t.visibility == Visibility::hidden) &&
        rerun.beyond_rounding)
      orders_.note(t);
    reruns.push_back(reordered_run_name(slug, n));
  }
  races_.note(t, add_sim_findings_against(r, ctx.runs_root(), slug, notes, false,
                                          hint_counters_source(ctx, t), reruns,
                                          instruction_place_namer(ctx, slug)));
}

// The same run again, with another seed for the simulator's order (grading/schedule_check).
ReorderedRun SimExtras::run_in_another_order(GradingContext& ctx, const TestSpec& t, int n) {
  const PhaseScope in_reruns(ctx.phases, GradingPhase::checking_reruns);
  const Params params = ctx.resolve_params(t.params);
  const ExpectedOutputs& expected = ctx.reference_run(t, t.task, params);
  TaskInvocation inv{ctx.executable, t.task, params, ctx.dataset_dir(t.dataset), t.warmup, t.repeat,
                     ctx.limits(t)};
  const TaskRun got = ctx.submission_runs.run(inv, reordered_run_name(run_slug(t.name), n));
  if (!got.ok()) return {false, "the run failed: " + got.message, got.sim_seed};
  try {
    const std::vector<harness::NamedArray> outputs = LabRunner::outputs(got);
    const CompareOutcome cmp = compare_outputs(expected.outputs, outputs, t.compare);
    const bool beyond_rounding = !cmp.ok && !compare_outputs(expected.outputs, outputs, rounding_band(t.compare)).ok;
    return {cmp.ok, cmp.message, got.sim_seed, beyond_rounding};
  } catch (const harness::OutputFormatError& e) {
    return {false, std::string("unreadable output: ") + e.what(), got.sim_seed};
  }
}

// The submission's sim runs count (PARLAB_SIM_CHECK=0 builds without the hooks).
bool SimExtras::counters_on(const GradingContext& ctx) const {
  return sim_child_environment(ctx.cores).at("PARLAB_SIM_COUNTERS") == "1";
}

// Sim mode grades a GPU performance test with a [tests.sim] table by a counter.
bool SimExtras::grades_performance(const TestSpec& t) const {
  return t.device == Device::gpu && t.sim_check.has_value();
}

TestResult SimExtras::grade_performance(GradingContext& ctx, const TestSpec& t,
                                        const std::map<std::string, TestResult>& done) {
  const auto counted_reference = reference_counters_.find(t.name);
  const std::optional<CounterTotals> reference =
      counted_reference != reference_counters_.end() ? counted_reference->second : std::nullopt;
  return run_sim_check(ctx, t, done, reference, counters_on(ctx));
}

void SimExtras::after_performance(GradingContext& ctx, const TestSpec& t, TestResult& r,
                                  std::vector<std::string>& notes) {
  if (grades_performance(t) && r.outcome == RunOutcome::ok)
    races_.note(t, add_sim_findings(r, ctx.runs_root(), run_slug(t.name), notes, true,
                                    reference_counters_.count(t.name) ? &reference_counters_[t.name]
                                                                      : nullptr,
                                    {}, instruction_place_namer(ctx, run_slug(t.name))));
}

void SimExtras::after_tests(GradingContext& ctx, std::map<std::string, TestResult>& done) {
  races_.apply(ctx.lab.tests, done);
  orders_.apply(ctx.lab.tests, done);  // a task with a race kept that message
}

// The reference in the simulator with the counters on: trusted, but its file is read
// like the submission's (no links, capped) and its folder removed at once. `scored`:
// every block counted, like the submission's counting run; else the sampled blocks,
// like the submission's correctness runs whose hints it judges.
std::optional<CounterTotals> SimExtras::reference_counters_on(GradingContext& ctx, const TestSpec& t,
                                                              const std::string& dataset, bool scored) {
  TaskInvocation inv{ctx.labtc.sim_reference_exe, t.task, ctx.resolve_params(t.params),
                     ctx.dataset_dir(dataset), 0, 1, ctx.limits(t)};
  if (scored) inv.env = sim_scored_counting_environment();
  inv.env["PARLAB_SIM_COUNTERS"] = "1";
  inv.limits.wall_seconds *= 4;
  inv.limits.cpu_seconds *= 4;
  const TaskRun run = ctx.reference_runs.run(inv, "sim-counters-" + run_slug(t.name));
  if (!run.ok()) {
    throw EnvironmentError("the reference solution failed in the simulator on dataset '" +
                           dataset + "' task '" + t.task + "' (the lab or this machine "
                           "is at fault, not the submission): " + run.message);
  }
  const SimReport report =
      read_sim_report(run.runs_root, run.run_name, kSimCountersFile, "counters", kSimCountersFileCap);
  fs::remove_all(run.runs_root / run.run_name);
  if (!report.problem.empty())
    throw EnvironmentError("the reference solution's simulator report on dataset '" + dataset +
                           "' did not verify (" + report.problem + ")");
  return report.text ? parse_sim_counters(*report.text) : std::nullopt;
}

}  // namespace parlab::grader
