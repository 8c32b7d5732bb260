#include "grading/performance_step.hpp"

#include <chrono>

#include "core/errors.hpp"
#include "grading/gpu_figures.hpp"
#include "grading/host_info.hpp"
#include "grading/performance_test.hpp"
#include "grading/physical_floor.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

PerformanceTestSetup performance_setup(GradingContext& ctx, const TestSpec& t) {
  const PerformanceSpec& p = *t.performance;
  const Params params = ctx.resolve_params(t.params);
  const Params base_params =
      p.baseline_params.values().empty() ? params : ctx.resolve_params(p.baseline_params);
  const fs::path data = ctx.dataset_dir(t.dataset);
  // CPU work is watched while it runs: its spread over processes and threads, and the
  // machine's other load (a GPU run's CPU side says nothing about its kernels).
  const bool observe = t.device == Device::cpu;
  PerformanceTestSetup setup;
  setup.test = &t;
  setup.track = ctx.lab.track;
  setup.baseline = {baseline_executable(ctx, p), p.baseline_task, base_params, data,
                    t.warmup, t.repeat, ctx.limits(t), observe};
  setup.candidate = {ctx.executable, t.task, params, data, t.warmup, t.repeat, ctx.limits(t), observe};
  if (!p.serial_task.empty()) {
    Params one_worker = params;
    if (one_worker.has("workers")) one_worker.set("workers", "1");
    setup.serial = TaskInvocation{baseline_executable(ctx, {.baseline_program = BaselineProgram::reference}),
                                  p.serial_task, one_worker, data, t.warmup, t.repeat,
                                  ctx.limits(t), false};
  }
  if (baseline_of_another_kind(t, ctx.lab)) {
    setup.witness = TaskInvocation{baseline_executable(ctx, {.baseline_program = BaselineProgram::reference}),
                                   t.task, params, data, t.warmup, t.repeat, ctx.limits(t),
                                   false};
  }
  if (measures_reference_gain(t, ctx.lab)) {
    // A gain test: the reference's own candidate task in every pair shows what this
    // machine lets it gain over the same baseline (score/scoring.hpp).
    setup.reference_candidate = TaskInvocation{
        baseline_executable(ctx, {.baseline_program = BaselineProgram::reference}), t.task,
        params, data, t.warmup, t.repeat, ctx.limits(t), observe};
  }
  if (p.parallel != ParallelKind::none && params.has("workers")) {
    // The reference's own task with one worker, run as the reference and watched like
    // the submission's 1-worker run: it bounds that run (docs/scoring.md).
    Params one_worker = params;
    one_worker.set("workers", "1");
    setup.reference_one_worker = TaskInvocation{
        baseline_executable(ctx, {.baseline_program = BaselineProgram::reference}), t.task,
        one_worker, data, t.warmup, t.repeat, ctx.limits(t), observe};
    setup.reference_parallel = TaskInvocation{
        baseline_executable(ctx, {.baseline_program = BaselineProgram::reference}), t.task,
        params, data, t.warmup, t.repeat, ctx.limits(t), observe};
  }
  setup.run_slug = run_slug(t.name);
  setup.cores = ctx.cores;
  setup.reference_runs = &ctx.reference_runs;
  setup.machine_cpus = machine_cpus();
  return setup;
}

// A GPU median below half the device's physical floor for the reference's declared
// work earns nothing, whatever the ratio said (grading/physical_floor.hpp).
void judge_physical_floor(const GradingContext& ctx, const TestSpec& t, const TaskRun& reference,
                          TestResult& r) {
  if (ctx.mode != DeviceMode::gpu || t.device != Device::gpu || !r.measurement) return;
  const auto floor = physical_floor(ctx.device, reference.work_bytes, reference.work_flops);
  if (!floor) return;
  const auto sentence = below_floor_sentence(*floor, r.measurement->candidate_median_s);
  if (!sentence) return;
  r.points = 0;
  r.status = TestStatus::failed;
  r.message += *sentence;
  r.measurement->timing_trusted = false;
}

}  // namespace

TestResult run_performance(GradingContext& ctx, const TestSpec& t,
                           const std::map<std::string, TestResult>& done) {
  TestResult r = ctx.base_result(t);
  if (auto why = ctx.not_measured_reason(t, done)) {
    r.status = why->status;
    r.message = why->reason;
    return r;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const PerformanceTestSetup setup = performance_setup(ctx, t);
  const ExpectedOutputs& reference = ctx.reference_run(t, t.task, ctx.resolve_params(t.params));
  run_performance_test(setup, ctx.submission_runs, reference.outputs, r,
                       [&](TestResult& result, const TaskRun& last, const Measurement& m) {
                         result.phases = gpu_phases(ctx.mode, t, last);
                         result.roofline = gpu_roofline(ctx.mode, ctx.device, t, last,
                                                        m.candidate_median_s);
                       });
  judge_physical_floor(ctx, t, reference.run, r);
  // All of the test's time: the pairs, and the 1-worker rounds and serial runs after them.
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

fs::path baseline_executable(const GradingContext& ctx, const PerformanceSpec& p) {
  if (p.baseline_program == BaselineProgram::submission) return ctx.executable;
  if (p.baseline_program == BaselineProgram::cpu_reference) return ctx.labtc.cpu_reference_exe;
  // Fair speed: a Python submission is measured against the Python reference, never
  // against compiled C++ (docs/lab-spec.md, "Tracks"). Checked before the GPU lab's
  // host-built reference: without a GPU a GPU lab's CPU tests are still timed, and
  // against that C++ program lab02's Python reference got 0.32x of itself.
  if (ctx.lab.track == Track::python) {
    if (ctx.labtc.python_reference_exe.empty())
      throw EnvironmentError(ctx.lab.id + "'s Python reference was not built; re-run cmake");
    return ctx.labtc.python_reference_exe;
  }
  // A GPU lab's reference built like the submission: nvcc on a GPU, else for the host
  // (only CPU tests are measured there).
  if (ctx.lab.kind == Device::gpu && ctx.mode != DeviceMode::gpu) return ctx.labtc.sim_reference_exe;
  return ctx.labtc.reference_exe;
}

}  // namespace parlab::grader
