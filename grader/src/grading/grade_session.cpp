// One grading as a pipeline of named steps (docs/architecture.md): stage, device,
// reference runs, build, correctness, performance, result. Each step is its own unit;
// what a device mode adds goes through one seam (grading/mode_extras).
#include "grading/grade_session.hpp"

#include <chrono>
#include <map>
#include <random>

#include "core/errors.hpp"
#include "grading/build_step.hpp"
#include "grading/correctness_step.hpp"
#include "grading/grade_totals.hpp"
#include "grading/grading_context.hpp"
#include "grading/grading_stage.hpp"
#include "grading/host_info.hpp"
#include "grading/measurement_lock.hpp"
#include "grading/mode_extras.hpp"
#include "grading/performance_step.hpp"
#include "grading/reference_step.hpp"
#include "grading/test_selection.hpp"
#include "grading/unsupported_feature.hpp"
#include "result/result_json.hpp"
#include "spec/dataset_stand_ins.hpp"
#include "util/atomic_write.hpp"
#include "util/clock_text.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

using TestResults = std::map<std::string, TestResult>;  // by test name

class Session {
 public:
  Session(const GradeOptions& o, const LabSpec& lab, const Toolchain& tc, ProcessRunner& runner)
      : ctx_(o, lab, tc, runner), extras_(make_mode_extras(DeviceMode::host)) {
    if (!o.only.empty()) selection_ = select_tests(lab, o.only, o.performance);
  }

  GradeResult run();

 private:
  GradeResult start_result();
  void choose_device(GradeResult& result);
  bool has_cpu_tests() const;
  bool selected(const TestSpec& t) const { return !selection_ || selection_->selects(t.name); }
  bool build(GradeResult& result);
  void run_correctness_tests(GradeResult& result, TestResults& done, MeasurementLock& lock);
  bool measures_any(const TestResults& done) const;
  void run_performance_tests(GradeResult& result, TestResults& done);
  void publish(const GradeResult& partial) const;
  void publish_done(const GradeResult& result, const TestResults& done) const;
  GradeResult finish(GradeResult& result, std::chrono::steady_clock::time_point t0);

  GradingContext ctx_;
  std::unique_ptr<ModeExtras> extras_;  // what the device mode adds to the steps
  std::optional<TestSelection> selection_;  // --only; none: every test
};

GradeResult Session::run() {
  const auto t0 = std::chrono::steady_clock::now();
  ctx_.phases = PhaseClock();  // from t0: the phases sum to no more than `seconds`
  GradeResult result = start_result();
  const GradingStage stage(ctx_.work, ctx_.grading_dir, ctx_.options.keep_runs,
                           ctx_.options.run_disk_quota_mb);
  result.host.isolation = ctx_.runner.isolation() + ", " + stage.run_area_description();
  result.notes.push_back(sandbox_note(result.host, ctx_.options.sandbox_level));
  ctx_.expected_exe = ctx_.labtc.reference_exe;
  publish(result);
  if (ctx_.lab.kind == Device::gpu) choose_device(result);
  if (ctx_.mode == DeviceMode::none && !has_cpu_tests()) {
    result.build = {.ok = true, .log = "(not built: no GPU tests run)"};
    for (const TestSpec& t : ctx_.lab.tests) result.tests.push_back(ctx_.skipped_without_gpu(t));
    return finish(result, t0);
  }
  ctx_.log("building " + result.submission);
  // Shared while building and testing, exclusive while measuring (measurement_lock.hpp).
  MeasurementLock machine_lock(
      MeasurementLock::default_dir(),
      ctx_.mode == DeviceMode::gpu ? std::optional<int>(MeasurementLock::visible_gpu()) : std::nullopt,
      ctx_.options.notice, "grade " + ctx_.lab.id + " " + result.submission);
  machine_lock.share();
  ctx_.phases.switch_to(GradingPhase::reference_runs);
  run_reference_step(ctx_, *extras_, [this](const TestSpec& t) { return selected(t); });
  ctx_.phases.switch_to(GradingPhase::build);
  if (!build(result)) {
    if (ctx_.mode == DeviceMode::sim && result.build.needs_gpu.empty()) {
      result.build.needs_gpu = unsupported_header_of(result.build);
    }
    result.tests = not_compiled_results(ctx_, result.build);
    return finish(result, t0);
  }
  TestResults done;
  ctx_.phases.switch_to(GradingPhase::tests);
  extras_->before_tests(ctx_, result);
  run_correctness_tests(result, done, machine_lock);
  ctx_.phases.switch_to(GradingPhase::performance);
  if (measures_any(done)) machine_lock.take_exclusive();
  run_performance_tests(result, done);
  machine_lock.release();
  extras_->after_tests(ctx_, done);
  for (const TestSpec& t : ctx_.lab.tests) result.tests.push_back(done.at(t.name));
  return finish(result, t0);
}

// The result's header: the lab, the submission, this host, the fresh seed, the notes
// known before anything runs.
GradeResult Session::start_result() {
  GradeResult result;
  result.grader_version = ctx_.toolchain.version;
  result.lab_id = ctx_.lab.id;
  result.lab_title = ctx_.lab.title;
  result.submission = resolve_submission(ctx_.options, ctx_.labtc).string();
  result.reference_mode = ctx_.options.reference_mode;
  result.track = ctx_.lab.track;
  result.started_at = now_iso8601();
  result.performance_enabled = ctx_.options.performance;
  result.host = probe_host(ctx_.runner.sandbox_name());
  ctx_.cores = result.host.cores;
  // Fresh seeds are kept short so a student can type them back with --seed.
  std::random_device entropy;
  ctx_.fresh_seed = ctx_.options.seed
                        ? *ctx_.options.seed
                        : ((std::uint64_t{entropy()} << 32) | entropy()) % 1000000000ull;
  result.fresh_seed = ctx_.fresh_seed;
  result.max_score = ctx_.lab.max_points();
  result.host.sandbox_level = ctx_.options.sandbox_level;
  if (auto note = weaker_sandbox_note(result.host.sandbox, ctx_.options.sandbox_level,
                                      ctx_.options.sandbox_fallback))
    result.notes.push_back(*note);
  if (!ctx_.options.performance) result.notes.push_back("performance tests disabled (--no-perf)");
  if (selection_) result.notes.push_back(selection_note(*selection_));
  return result;
}

// GPU labs only: probe (in the sandbox) and pick gpu, sim or none; say so up front.
void Session::choose_device(GradeResult& result) {
  bool roofline_wanted = false;
  for (const TestSpec& t : ctx_.lab.tests) roofline_wanted |= t.roofline.has_value();
  ctx_.device = grader::choose_device(ctx_.options.device, ctx_.toolchain, ctx_.runner,
                                      ctx_.grading_dir / "device-probe",
                                      ctx_.options.performance && roofline_wanted);
  result.device = ctx_.device;
  ctx_.mode = device_mode_of(ctx_.device);
  // Expected outputs come from the CPU reference (GPU labs; with none, for its CPU tests).
  ctx_.expected_exe = ctx_.labtc.cpu_reference_exe;
  if (ctx_.mode == DeviceMode::gpu) result.host.gpu = ctx_.device.name;
  // Kernels run on the CPU there, every access checked: the lab's [sim] stand-ins.
  if (ctx_.mode == DeviceMode::sim) ctx_.lab = for_simulator(ctx_.lab);
  if (ctx_.mode == DeviceMode::none) {
    result.notes.push_back("no GPU tests run (" + ctx_.device.detail +
                           "): each GPU test is reported as skipped; grade exits with 3 "
                           "(1 when a test that did run failed)");
  }
  // A Python program's kernels run in Numba's own simulator (its errors come back in
  // status.json), never in parlab's: no simulator report or counters to read.
  extras_ = make_mode_extras(ctx_.lab.track == Track::python ? DeviceMode::host : ctx_.mode);
  extras_->prepare(ctx_, result);
}

bool Session::has_cpu_tests() const {
  for (const TestSpec& t : ctx_.lab.tests) {
    if (t.device == Device::cpu) return true;
  }
  return false;
}

bool Session::build(GradeResult& result) {
  const BuiltProgram built = build_step(ctx_, fs::path(result.submission));
  result.build = built.result;
  publish(result);
  if (!built.result.ok) return false;
  ctx_.executable = built.executable;
  return true;
}

void Session::run_correctness_tests(GradeResult& result, TestResults& done, MeasurementLock& lock) {
  for (const TestSpec& t : ctx_.lab.tests) {
    if (t.kind != TestKind::correctness) continue;
    if (!selected(t)) {
      done[t.name] = not_selected_result(ctx_.base_result(t));
      continue;
    }
    ctx_.log("test: " + t.name);
    if (!ctx_.runs_here(t)) {
      done[t.name] = ctx_.skipped_without_gpu(t);
    } else {
      // gpu_alone: no other grading's run on this GPU beside this one (its re-run under
      // compute-sanitizer included), then back to sharing.
      const bool alone = t.gpu_alone && ctx_.mode == DeviceMode::gpu;
      if (alone) lock.take_exclusive();
      CorrectnessRun ran = run_correctness(ctx_, t);
      done[t.name] = ran.result;
      extras_->after_correctness(ctx_, t, ran.run, done[t.name], result.notes);
      if (alone) lock.share();
    }
    publish_done(result, done);
  }
}

// Gradings that measure nothing never take the exclusive lock.
bool Session::measures_any(const TestResults& done) const {
  for (const TestSpec& t : ctx_.lab.tests) {
    if (t.kind == TestKind::performance && selected(t) && ctx_.runs_here(t) && !extras_->grades_performance(t) &&
        !ctx_.not_measured_reason(t, done))
      return true;
  }
  return false;
}

void Session::run_performance_tests(GradeResult& result, TestResults& done) {
  for (const TestSpec& t : ctx_.lab.tests) {
    if (t.kind != TestKind::performance) continue;
    if (!selected(t)) {
      done[t.name] = not_selected_result(ctx_.base_result(t));
      continue;
    }
    const bool own_way = extras_->grades_performance(t);  // sim mode: by a counter
    if (ctx_.runs_here(t) && !ctx_.not_measured_reason(t, done))
      ctx_.log((own_way ? "counting: " : "measuring: ") + t.name);
    if (!ctx_.runs_here(t)) {
      done[t.name] = ctx_.skipped_without_gpu(t);
    } else {
      done[t.name] = own_way ? extras_->grade_performance(ctx_, t, done) : run_performance(ctx_, t, done);
      extras_->after_performance(ctx_, t, done[t.name], result.notes);
    }
    publish_done(result, done);
  }
}

void Session::publish(const GradeResult& partial) const {
  if (ctx_.options.checkpoint) ctx_.options.checkpoint(partial);
}

// Results in the lab's order so far, for a partial result.json if the grading stops.
void Session::publish_done(const GradeResult& result, const TestResults& done) const {
  GradeResult partial = result;
  for (const TestSpec& t : ctx_.lab.tests) {
    if (auto it = done.find(t.name); it != done.end()) partial.tests.push_back(it->second);
  }
  publish(partial);
}

GradeResult Session::finish(GradeResult& result, std::chrono::steady_clock::time_point t0) {
  add_totals(result);
  result.phase_seconds = ctx_.phases.totals();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.child_seconds = ctx_.submission_runs.child_seconds() + ctx_.reference_runs.child_seconds();
  write_file_atomically(ctx_.work / "result.json", result_json_text(result));
  publish(result);
  return result;
}

}  // namespace

fs::path resolve_submission(const GradeOptions& options, const LabToolchain& lab) {
  if (options.reference_mode)
    return options.reference_folder.empty() ? lab.reference_dir : lab.reference_dir / options.reference_folder;
  if (options.submission_dir.empty()) return lab.dir / options.skeleton_folder;
  return options.submission_dir;
}

GradeResult grade_submission(const GradeOptions& options, const LabSpec& lab,
                             const Toolchain& toolchain, ProcessRunner& runner) {
  fs::path submission = resolve_submission(options, toolchain.lab(lab.id));
  if (!fs::is_directory(submission)) {
    throw UsageError("submission folder not found: " + submission.string());
  }
  Session session(options, lab, toolchain, runner);
  return session.run();
}

int exit_code_for(const GradeResult& result) {
  if (!result.build.ok) return kExitSomeFailed;
  // A failure the student can act on comes first; then GPU tests that could not run.
  for (const TestResult& t : result.tests) {
    if (t.status == TestStatus::failed || t.status == TestStatus::partial) return kExitSomeFailed;
  }
  for (const TestResult& t : result.tests) {
    if (t.status == TestStatus::inconclusive) return kExitInconclusive;
  }
  if (result.device.mode == DeviceMode::none) return kExitEnvironment;
  return kExitAllPassed;
}

}  // namespace parlab::grader
