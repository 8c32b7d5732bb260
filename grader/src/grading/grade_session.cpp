#include "grading/grade_session.hpp"
#include "util/clock_text.hpp"

#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <random>
#include <set>

#include "compile/content_hash.hpp"
#include "compile/submission_builder.hpp"
#include "core/errors.hpp"
#include "compare/comparator.hpp"
#include "grading/child_run_files.hpp"
#include "grading/dataset_cache.hpp"
#include "grading/host_info.hpp"
#include "grading/folder_lock.hpp"
#include "grading/grading_area.hpp"
#include "grading/lab_runner.hpp"
#include "grading/measurement_lock.hpp"
#include "grading/page_cache_warmup.hpp"
#include "grading/performance_gate.hpp"
#include "grading/performance_test.hpp"
#include "grading/run_feedback.hpp"
#include "grading/schedule_check.hpp"
#include "grading/sim_counters.hpp"
#include "grading/gpu_sanitizer.hpp"
#include "grading/sim_mode.hpp"
#include "measure/statistics.hpp"
#include "process/run_area.hpp"
#include "result/result_json.hpp"
#include "score/scoring.hpp"
#include "util/atomic_write.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

std::string slug(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "test" : out;
}

// Everything one grading needs while it runs.
class Session {
 public:
  Session(const GradeOptions& o, const LabSpec& lab, const Toolchain& tc, ProcessRunner& runner)
      : options_(o),
        lab_(lab),
        labtc_(tc.lab(lab.id)),
        toolchain_(tc),
        runner_(runner),
        work_(o.work_root / lab.id / ContentHash().add(fs::absolute(resolve_submission(o, labtc_)).string()).hex()),
        grading_dir_(work_ / "gradings" / grading_folder_name()),
        cache_(o.work_root / "dataset-cache"),
        fresh_cache_(grading_dir_ / "fresh-data"),
        submission_runs_(runner, grading_dir_ / "runs"),
        // Another identity (uid), so the submission cannot read what it wrote.
        reference_runs_(runner.for_reference(), grading_dir_ / "reference-runs") {}

  GradeResult run();

 private:
  void log(const std::string& line) const {
    if (options_.log) options_.log(line);
  }
  Params resolve_params(const Params& p) const;
  fs::path dataset_dir(const std::string& id);
  std::string dataset_label(const std::string& id) const;
  // What the reference computed, read into memory; its run folder is gone.
  struct Expected {
    TaskRun run;
    std::vector<harness::NamedArray> outputs;
  };
  const Expected& reference_run(const TestSpec& t, const std::string& task, const Params& params);
  void compute_expected_outputs();
  TestResult run_correctness(const TestSpec& t);
  ReorderedRun run_in_another_order(const TestSpec& t, int n);
  TestResult run_performance(const TestSpec& t, const std::map<std::string, TestResult>& done);
  bool counters_on() const;
  bool sim_checked(const TestSpec& t) const;
  TestSpec sim_check_test(const TestSpec& t) const;
  std::optional<CounterTotals> reference_counters_on(const TestSpec& t, const std::string& dataset);
  TestResult run_sim_check(const TestSpec& t, const std::map<std::string, TestResult>& done);
  std::optional<NotMeasured> not_measured_reason(const TestSpec& t,
                                                 const std::map<std::string, TestResult>& done) const;
  bool measures_any(const std::map<std::string, TestResult>& done) const;
  void publish(const GradeResult& partial) const;
  GradeResult finish(GradeResult& result, std::chrono::steady_clock::time_point t0);
  TestResult base_result(const TestSpec& t) const;
  void choose_device(GradeResult& result);
  BuildTarget build_target() const;
  ResourceLimits limits(const TestSpec& t) const;
  fs::path baseline_executable(const PerformanceSpec& p) const;
  std::vector<Phase> gpu_phases(const TestSpec& t, const TaskRun& run) const;
  bool runs_here(const TestSpec& t) const;
  bool has_cpu_tests() const;
  TestResult skipped_without_gpu(const TestSpec& t) const;
  std::optional<Roofline> roofline(const TestSpec& t, const TaskRun& run, double seconds) const;

  const GradeOptions& options_;
  const LabSpec& lab_;
  const LabToolchain& labtc_;
  const Toolchain& toolchain_;
  ProcessRunner& runner_;
  fs::path work_;
  fs::path grading_dir_;  // this grading's runs, fresh data and probes; removed at the end
  DatasetCache cache_;
  DatasetCache fresh_cache_;
  LabRunner submission_runs_;
  LabRunner reference_runs_;
  std::uint64_t fresh_seed_ = 0;
  int cores_ = 1;
  fs::path executable_;
  fs::path expected_exe_;  // where expected outputs come from (GPU labs: the CPU reference)
  DeviceInfo device_;      // GPU labs: where the tests run, for the report
  DeviceMode mode_ = DeviceMode::host;  // the same, for the policy
  std::map<std::string, Expected> reference_cache_;
  // Sim mode: the reference's counters per sim-checked test (nothing: counters off).
  std::map<std::string, std::optional<CounterTotals>> reference_counters_;
  // Sim mode: the reference's counters on each GPU correctness test's data, to judge
  // the memory-access hints against (nothing: counters off).
  std::map<std::string, std::optional<CounterTotals>> reference_hint_counters_;
  std::map<std::string, std::string> run_seeds_;  // sim mode: each test's own run's seed
};

Params Session::resolve_params(const Params& p) const {
  Params out = p;
  for (const auto& [k, v] : p.values()) {
    if (v == "cores") out.set(k, std::to_string(cores_));
  }
  return out;
}

fs::path Session::dataset_dir(const std::string& id) {
  const DatasetSpec& d = lab_.dataset(id);
  if (d.seed) return cache_.get(d, *d.seed);
  return fresh_cache_.get(d, fresh_seed_);
}

std::string Session::dataset_label(const std::string& id) const {
  const DatasetSpec& d = lab_.dataset(id);
  std::string seed = d.seed ? std::to_string(*d.seed) : std::to_string(fresh_seed_) + ", fresh";
  return id + " (seed " + seed + ")";
}

// Expected outputs come from the reference executable; cached per key so a grading
// runs the reference once per (dataset, task, params). They are read into memory and
// their folder removed at once, so no later program (the submission at any sandbox
// level, even running as the same user) can find them on disk.
const Session::Expected& Session::reference_run(const TestSpec& t, const std::string& task,
                                      const Params& params) {
  fs::path data = dataset_dir(t.dataset);
  ContentHash key;
  key.add_file_stamp(expected_exe_).add(data.string()).add(task);
  for (const auto& [k, v] : params.values()) key.add(k).add(v);
  auto it = reference_cache_.find(key.hex());
  if (it != reference_cache_.end()) return it->second;

  TaskInvocation inv{expected_exe_, task, params, data, 0, 1, limits(t)};
  // The reference gets generous limits: if it fails, the lab is broken, not the student.
  inv.limits.wall_seconds *= 4;
  inv.limits.cpu_seconds *= 4;
  TaskRun run = reference_runs_.run(inv, key.hex());
  if (!run.ok()) {
    // Not the student's doing: the lab is broken or this machine could not run it
    // (a process limit, a full disk). An environment error, retried by a batch.
    throw EnvironmentError("the reference solution failed on dataset '" + t.dataset + "' task '" +
                           task + "' (the lab or this machine is at fault, not the submission): " +
                           run.message +
                           (run.run.stderr_text.empty() ? "" : "\n" + run.run.stderr_text));
  }
  Expected expected;
  try {
    expected.outputs = LabRunner::outputs(run);
  } catch (const harness::OutputFormatError& e) {
    throw ToolError(kExitInternal, "the reference solution's outputs on dataset '" + t.dataset +
                                       "' task '" + task + "' are unreadable: " + e.what());
  }
  fs::remove_all(run.runs_root / run.run_name);
  expected.run = std::move(run);
  return reference_cache_.emplace(key.hex(), std::move(expected)).first->second;
}

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

// Every reference run the tests will need, before any submission code runs (its
// build included): item 3 of docs/sandbox.md's table.
void Session::compute_expected_outputs() {
  for (const TestSpec& t : lab_.tests) {
    if (!runs_here(t)) continue;
    // A sim-mode substitute: the reference's outputs and counters on its small dataset.
    if (t.kind == "performance" && sim_checked(t)) {
      const auto why = not_measured_reason(t, {});
      if (why && why->status == TestStatus::not_graded) continue;
      reference_run(sim_check_test(t), t.task, resolve_params(t.params));
      if (counters_on()) reference_counters_[t.name] = reference_counters_on(t, t.sim_check->dataset);
      continue;
    }
    if (t.kind == "correctness" && mode_ == DeviceMode::sim && t.device == "gpu" && counters_on())
      reference_hint_counters_[t.name] = reference_counters_on(t, t.dataset);
    // A performance test that cannot be graded here needs no expected outputs.
    if (t.kind == "performance") {
      const auto why = not_measured_reason(t, {});
      if (why && why->status == TestStatus::not_graded) continue;
    }
    reference_run(t, t.task, resolve_params(t.params));
  }
}

TestResult Session::base_result(const TestSpec& t) const {
  TestResult r;
  r.name = t.name;
  r.kind = t.kind;
  r.visibility = t.visibility;
  r.max_points = t.points;
  r.dataset = dataset_label(t.dataset);
  return r;
}

TestResult Session::run_correctness(const TestSpec& t) {
  TestResult r = base_result(t);
  auto t0 = std::chrono::steady_clock::now();
  Params params = resolve_params(t.params);
  const Expected& expected = reference_run(t, t.task, params);
  TaskInvocation inv{executable_, t.task, params, dataset_dir(t.dataset), t.warmup, t.repeat,
                     limits(t)};
  TaskRun got = submission_runs_.run(inv, slug(t.name));
  run_seeds_[t.name] = got.sim_seed;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!got.ok()) {
    fail_from_run(r, got);
    return r;
  }
  r.outcome = RunOutcome::ok;
  r.stdout_tail = output_tail(got.run.stdout_text, got.run.stdout_truncated);
  r.stderr_tail = output_tail(got.run.stderr_text, got.run.stderr_truncated);
  r.phases = gpu_phases(t, got);
  CompareOutcome cmp;
  try {
    cmp = compare_outputs(expected.outputs, LabRunner::outputs(got), t.compare);
  } catch (const harness::OutputFormatError& e) {
    r.status = TestStatus::failed;
    r.outcome = RunOutcome::bad_output;
    r.message = std::string("unreadable output: ") + e.what();
    return r;
  }
  if (cmp.ok) {
    r.status = TestStatus::passed;
    r.points = t.points;
    r.message = "all outputs match";
    return r;
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
  return r;
}

// The same run again, with another seed for the simulator's order (grading/schedule_check).
ReorderedRun Session::run_in_another_order(const TestSpec& t, int n) {
  const Params params = resolve_params(t.params);
  const Expected& expected = reference_run(t, t.task, params);
  TaskInvocation inv{executable_, t.task, params, dataset_dir(t.dataset), t.warmup, t.repeat,
                     limits(t)};
  const TaskRun got = submission_runs_.run(inv, reordered_run_name(slug(t.name), n));
  if (!got.ok()) return {false, "the run failed: " + got.message, got.sim_seed};
  try {
    const CompareOutcome cmp = compare_outputs(expected.outputs, LabRunner::outputs(got), t.compare);
    return {cmp.ok, cmp.message, got.sim_seed};
  } catch (const harness::OutputFormatError& e) {
    return {false, std::string("unreadable output: ") + e.what(), got.sim_seed};
  }
}

std::optional<NotMeasured> Session::not_measured_reason(
    const TestSpec& t, const std::map<std::string, TestResult>& done) const {
  return performance_gate(t, lab_, {options_.performance, mode_, device_.detail, cores_}, done);
}

// Gradings that measure nothing never take the exclusive lock.
bool Session::measures_any(const std::map<std::string, TestResult>& done) const {
  for (const TestSpec& t : lab_.tests) {
    if (t.kind == "performance" && runs_here(t) && !sim_checked(t) &&
        !not_measured_reason(t, done))
      return true;
  }
  return false;
}

// The submission's sim runs count (PARLAB_SIM_CHECK=0 builds without the hooks).
bool Session::counters_on() const {
  return sim_child_environment(cores_).at("PARLAB_SIM_COUNTERS") == "1";
}

// Sim mode grades a GPU performance test with a [tests.sim] table by a counter.
bool Session::sim_checked(const TestSpec& t) const {
  return mode_ == DeviceMode::sim && t.device == "gpu" && t.sim_check.has_value();
}

// The test as its sim check runs it: its task on the check's small dataset, once.
TestSpec Session::sim_check_test(const TestSpec& t) const {
  TestSpec small = t;
  small.dataset = t.sim_check->dataset;
  small.warmup = 0;
  small.repeat = 1;
  return small;
}

// The reference in the simulator with the counters on: trusted, but its file is read
// like the submission's (no links, capped) and its folder removed at once.
std::optional<CounterTotals> Session::reference_counters_on(const TestSpec& t,
                                                           const std::string& dataset) {
  TaskInvocation inv{labtc_.sim_reference_exe, t.task, resolve_params(t.params),
                     dataset_dir(dataset), 0, 1, limits(t)};
  inv.limits.wall_seconds *= 4;
  inv.limits.cpu_seconds *= 4;
  const TaskRun run = reference_runs_.run(inv, "sim-counters-" + slug(t.name));
  if (!run.ok()) {
    throw EnvironmentError("the reference solution failed in the simulator on dataset '" +
                           dataset + "' task '" + t.task + "' (the lab or this machine "
                           "is at fault, not the submission): " + run.message);
  }
  const std::optional<std::string> text =
      ChildRunFiles(run.runs_root, run.run_name).read_text(kSimCountersFile, kSimCountersFileCap);
  fs::remove_all(run.runs_root / run.run_name);
  return text ? parse_sim_counters(*text) : std::nullopt;
}

TestResult Session::run_sim_check(const TestSpec& t,
                                  const std::map<std::string, TestResult>& done) {
  TestResult r = base_result(t);
  const TestSpec small = sim_check_test(t);
  const SimCheckSpec& check = *t.sim_check;
  r.dataset = dataset_label(small.dataset);
  if (auto why = not_measured_reason(t, done)) {
    r.status = why->status;
    r.message = why->reason;
    return r;
  }
  const auto counted_reference = reference_counters_.find(t.name);
  const std::optional<CounterTotals> reference =
      counted_reference != reference_counters_.end() ? counted_reference->second : std::nullopt;
  const std::optional<double> reference_value =
      reference ? counter_value(*reference, check.counter) : std::nullopt;
  if (!reference_value) {
    r.status = TestStatus::not_graded;
    r.message = counters_on()
                    ? "not graded here: the reference gave no " + counter_label(check.counter) +
                          " in the simulator; grade on a machine with an NVIDIA GPU to measure it"
                    : "not graded here: the simulator's counters are off (PARLAB_SIM_CHECK=0); "
                      "grade on a machine with an NVIDIA GPU to measure it";
    return r;
  }
  const Params params = resolve_params(t.params);
  const Expected& expected = reference_run(small, t.task, params);
  TaskInvocation inv{executable_, t.task, params, dataset_dir(small.dataset), 0, 1, limits(t)};
  const auto t0 = std::chrono::steady_clock::now();
  const TaskRun got = submission_runs_.run(inv, slug(t.name));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!got.ok()) {
    fail_from_run(r, got);
    return r;
  }
  r.outcome = RunOutcome::ok;
  try {
    const CompareOutcome cmp = compare_outputs(expected.outputs, LabRunner::outputs(got), t.compare);
    if (!cmp.ok) {
      r.status = TestStatus::failed;
      r.message = lab_.dataset(small.dataset).hidden
                      ? "wrong result in the simulator on hidden data"
                      : "wrong result in the simulator on " + small.dataset + ": " + cmp.message;
      return r;
    }
  } catch (const harness::OutputFormatError& e) {
    r.status = TestStatus::failed;
    r.outcome = RunOutcome::bad_output;
    r.message = std::string("unreadable output: ") + e.what();
    return r;
  }
  const std::optional<std::string> text =
      ChildRunFiles(got.runs_root, got.run_name).read_text(kSimCountersFile, kSimCountersFileCap);
  const std::optional<CounterTotals> counted = text ? parse_sim_counters(*text) : std::nullopt;
  const std::optional<double> value =
      counted ? counter_value(*counted, check.counter) : std::nullopt;
  if (!value) {
    r.status = TestStatus::failed;
    r.message = "the simulator counted no " + counter_label(check.counter) +
                ": no kernel launch did the task's work on the GPU";
    return r;
  }
  if (const std::string why = contradictory_counts(*counted); !why.empty()) {
    r.status = TestStatus::failed;
    r.message = "the simulator's report was tampered with: its counts contradict each other (" +
                why + "), so this check earns nothing";
    return r;
  }
  score_sim_check(check, *value, *reference_value, r);
  r.message += "\n" + counters_side_by_side(*counted, *reference);
  return r;
}

TestResult Session::run_performance(const TestSpec& t,
                                    const std::map<std::string, TestResult>& done) {
  if (sim_checked(t)) return run_sim_check(t, done);
  TestResult r = base_result(t);
  const PerformanceSpec& p = *t.performance;
  if (auto why = not_measured_reason(t, done)) {
    r.status = why->status;
    r.message = why->reason;
    return r;
  }
  const Params params = resolve_params(t.params);
  const Params base_params =
      p.baseline_params.values().empty() ? params : resolve_params(p.baseline_params);
  const fs::path data = dataset_dir(t.dataset);
  // CPU work is watched while it runs: its spread over processes and threads, and the
  // machine's other load (a GPU run's CPU side says nothing about its kernels).
  const bool observe = t.device == "cpu";
  PerformanceTestSetup setup;
  setup.test = &t;
  setup.baseline = {baseline_executable(p), p.baseline_task, base_params, data,
                    t.warmup, t.repeat, limits(t), observe};
  setup.candidate = {executable_, t.task, params, data, t.warmup, t.repeat, limits(t), observe};
  if (!p.serial_task.empty()) {
    Params one_worker = params;
    if (one_worker.has("workers")) one_worker.set("workers", "1");
    setup.serial = TaskInvocation{baseline_executable({.baseline_program = "reference"}),
                                  p.serial_task, one_worker, data, t.warmup, t.repeat,
                                  limits(t), false};
  }
  if (baseline_of_another_kind(t, lab_)) {
    setup.witness = TaskInvocation{baseline_executable({.baseline_program = "reference"}),
                                   t.task, params, data, t.warmup, t.repeat, limits(t),
                                   false};
  }
  setup.run_slug = slug(t.name);
  setup.cores = cores_;
  setup.reference_runs = &reference_runs_;
  setup.machine_cpus = machine_cpus();
  const std::vector<harness::NamedArray>& expected = reference_run(t, t.task, params).outputs;
  run_performance_test(setup, submission_runs_, expected, r,
                       [&](TestResult& result, const TaskRun& last, const Measurement& m) {
                         result.phases = gpu_phases(t, last);
                         result.roofline = roofline(t, last, m.candidate_median_s);
                       });
  return r;
}

// GPU labs only: probe (in the sandbox) and pick gpu, sim or none; say so up front.
void Session::choose_device(GradeResult& result) {
  bool roofline_wanted = false;
  for (const TestSpec& t : lab_.tests) roofline_wanted |= t.roofline.has_value();
  device_ = grader::choose_device(options_.device, toolchain_, runner_, grading_dir_ / "device-probe",
                                  options_.performance && roofline_wanted);
  result.device = device_;
  mode_ = device_mode_of(device_);
  if (mode_ == DeviceMode::gpu) {
    result.host.gpu = device_.name;
    expected_exe_ = labtc_.cpu_reference_exe;
  } else if (mode_ == DeviceMode::sim) {
    expected_exe_ = labtc_.cpu_reference_exe;
    result.notes.push_back(sim_mode_note(device_.detail));
    std::map<std::string, std::string> env = sim_child_environment(cores_);
    submission_runs_.set_fresh_sim_seeds(true);
    reference_runs_.set_fresh_sim_seeds(true);
    // One sample seed per grading: the counters of the submission's runs and of the
    // reference's come from the same blocks (comparable), which no run can know.
    env["PARLAB_SIM_SAMPLE_SEED"] = fresh_sim_seed();
    submission_runs_.set_extra_env(env);
    reference_runs_.set_extra_env(env);
  } else {
    expected_exe_ = labtc_.cpu_reference_exe;  // for the lab's CPU tests, if any
    result.notes.push_back("no GPU tests run (" + device_.detail +
                           "): each GPU test is reported as skipped; grade exits with 3 "
                           "(1 when a test that did run failed)");
  }
}

BuildTarget Session::build_target() const {
  if (lab_.kind != "gpu") return BuildTarget::host;
  // Without a GPU (sim, or none for a lab's CPU tests) g++ builds the host variant.
  return mode_ == DeviceMode::gpu ? BuildTarget::cuda : BuildTarget::sim;
}

// Without a GPU (--device none, or auto finding neither GPU nor simulator), GPU tests
// are skipped; a GPU lab's CPU tests still run.
bool Session::runs_here(const TestSpec& t) const {
  return mode_ != DeviceMode::none || t.device == "cpu";
}

bool Session::has_cpu_tests() const {
  for (const TestSpec& t : lab_.tests) {
    if (t.device == "cpu") return true;
  }
  return false;
}

TestResult Session::skipped_without_gpu(const TestSpec& t) const {
  TestResult r = base_result(t);
  r.status = TestStatus::not_graded;
  r.message = "not graded here: no GPU tests run (" + device_.detail + ")";
  return r;
}

// The CUDA runtime reserves a huge virtual address range, so an address-space limit
// would make every CUDA program fail to start; GPU runs rely on the wall/CPU limits,
// the run's memory cgroup (resident memory, where there is one) and the device's own memory.
ResourceLimits Session::limits(const TestSpec& t) const {
  ResourceLimits l = t.limits;
  if (mode_ == DeviceMode::gpu) {
    l.memory_mb = l.address_space_mb;  // resident memory still bounded by the run's cgroup
    l.address_space_mb = 0;
  }
  return l;
}

fs::path Session::baseline_executable(const PerformanceSpec& p) const {
  if (p.baseline_program == "submission") return executable_;
  if (p.baseline_program == "cpu_reference") return labtc_.cpu_reference_exe;
  // A GPU lab's reference built like the submission: nvcc on a GPU, else for the host
  // (only CPU tests are measured there).
  if (lab_.kind == "gpu" && mode_ != DeviceMode::gpu) return labtc_.sim_reference_exe;
  return labtc_.reference_exe;
}

// On a GPU: the kernels' median device time, then each phase the driver timed apart
// (transfers). Nothing in sim mode, where times say nothing about a GPU.
std::vector<Phase> Session::gpu_phases(const TestSpec& t, const TaskRun& run) const {
  std::vector<Phase> phases;
  if (mode_ != DeviceMode::gpu || t.device != "gpu" || run.samples_s.empty()) return phases;
  phases.push_back({run.sample_label.empty() ? "kernels" : run.sample_label,
                    median(run.samples_s)});
  for (const auto& [name, samples] : run.phases_s) phases.push_back({name, median(samples)});
  return phases;
}

std::optional<Roofline> Session::roofline(const TestSpec& t, const TaskRun& run,
                                          double seconds) const {
  if (!t.roofline || mode_ != DeviceMode::gpu || t.device != "gpu" || !(seconds > 0)) return std::nullopt;
  Roofline r;
  r.bound = t.roofline->bound;
  const bool memory = r.bound == "memory";
  r.unit = memory ? "GB/s" : "GFLOP/s";
  const double work = memory ? run.work_bytes : run.work_flops;
  r.peak = memory ? device_.bandwidth_gbs : device_.sgemm_gflops;
  if (!(work > 0) || !(r.peak > 0)) return std::nullopt;  // not declared or not measured
  r.achieved = work / seconds / 1e9;
  r.fraction = r.achieved / r.peak;
  if (r.fraction < t.roofline->hint_below) r.hint = t.roofline->hint;
  return r;
}

void Session::publish(const GradeResult& partial) const {
  if (options_.checkpoint) options_.checkpoint(partial);
}

GradeResult Session::finish(GradeResult& result, std::chrono::steady_clock::time_point t0) {
  result.score = 0;
  result.graded_max_score = 0;
  for (const TestResult& r : result.tests) {
    result.score += r.points;
    if (counts_in_graded_total(r.status)) result.graded_max_score += r.max_points;
  }
  result.score = round_points(result.score);
  result.graded_max_score = round_points(result.graded_max_score);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.child_seconds = submission_runs_.child_seconds() + reference_runs_.child_seconds();
  write_file_atomically(work_ / "result.json", result_json_text(result));
  publish(result);
  return result;
}

GradeResult Session::run() {
  auto t0 = std::chrono::steady_clock::now();
  GradeResult result;
  result.grader_version = toolchain_.version;
  result.lab_id = lab_.id;
  result.lab_title = lab_.title;
  result.submission = resolve_submission(options_, labtc_).string();
  result.reference_mode = options_.reference_mode;
  result.started_at = now_iso8601();
  result.performance_enabled = options_.performance;
  result.host = probe_host(runner_.sandbox_name());
  cores_ = result.host.cores;
  // Fresh seeds are kept short so a student can type them back with --seed.
  std::random_device entropy;
  fresh_seed_ = options_.seed ? *options_.seed
                              : ((std::uint64_t{entropy()} << 32) | entropy()) % 1000000000ull;
  result.fresh_seed = fresh_seed_;
  result.max_score = lab_.max_points();
  result.host.sandbox_level = options_.sandbox_level;
  if (result.host.sandbox != "bubblewrap" && options_.sandbox_level != "off") {
    result.notes.push_back("sandbox: bubblewrap unavailable (" +
                           (options_.sandbox_fallback.empty() ? std::string("reason unknown")
                                                              : options_.sandbox_fallback) +
                           "), running with rlimits only: the submission can see the rest of "
                           "this machine's files; use --sandbox require to refuse this");
  } else if (result.host.sandbox != "bubblewrap") {
    result.notes.push_back("sandbox: turned off (--sandbox off): rlimits only, the submission "
                           "can see the rest of this machine's files");
  }
  if (!options_.performance) result.notes.push_back("performance tests disabled (--no-perf)");
  fs::create_directories(grading_dir_);
  // This grading's runs go when it ends, however it ends (a kill -9 leaves them for
  // the next grading of the same submission to sweep, below); --keep-runs keeps them.
  struct RemoveOnExit {
    fs::path dir;
    bool keep;
    ~RemoveOnExit() {
      std::error_code ignored;
      if (!keep) fs::remove_all(dir, ignored);
    }
  } remove_runs{grading_dir_, options_.keep_runs};
  remove_abandoned_gradings(work_ / "gradings", grading_dir_);
  // Enter, not list: a child (any uid) cannot browse other gradings or their folders.
  const fs::perms enter_only = fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec;
  for (const fs::path& dir : {work_.parent_path(), work_, work_ / "gradings", grading_dir_}) {
    std::error_code not_ours;  // a shared work root owned by someone else: leave it
    fs::permissions(dir, enter_only, not_ours);
  }
  // The submission's run folders: one bounded area, removed after the grading.
  process::RunArea run_area(grading_dir_ / "runs", options_.run_disk_quota_mb << 20,
                            options_.keep_runs);
  result.host.isolation = runner_.isolation() + ", " + run_area.describe();
  result.notes.push_back("sandbox: " + result.host.sandbox + " (level " + options_.sandbox_level +
                         "), " + result.host.isolation);
  expected_exe_ = labtc_.reference_exe;
  publish(result);
  if (lab_.kind == "gpu") choose_device(result);

  if (mode_ == DeviceMode::none && !has_cpu_tests()) {
    result.build.ok = true;
    result.build.log = "(not built: no GPU tests run)";
    for (const TestSpec& t : lab_.tests) result.tests.push_back(skipped_without_gpu(t));
    return finish(result, t0);
  }

  log("building " + result.submission);
  // Shared while building and testing, exclusive while measuring (measurement_lock.hpp).
  MeasurementLock machine_lock(MeasurementLock::default_dir(),
                               mode_ == DeviceMode::gpu
                                   ? std::optional<int>(MeasurementLock::visible_gpu())
                                   : std::nullopt,
                               options_.notice, "grade " + lab_.id + " " + result.submission);
  machine_lock.share();
  compute_expected_outputs();
  BuiltProgram built;
  {
    // Two gradings of one submission build one at a time; the second reuses the build.
    FolderLock build_lock(work_ / "build.lock", options_.notice,
                          "another grading of this submission is building it");
    built = build_submission(lab_, toolchain_, fs::path(result.submission), work_ / "build",
                             runner_, build_target());
  }
  open_cached_build_to_this_grading(work_ / "build");
  result.build = built.result;
  publish(result);
  if (!built.result.ok) {
    for (const TestSpec& t : lab_.tests) {
      TestResult r = base_result(t);
      r.status = TestStatus::failed;
      r.outcome = RunOutcome::not_run;
      r.message = "not run: the submission did not compile (see the build errors above)";
      result.tests.push_back(r);
    }
    return finish(result, t0);
  }
  executable_ = built.executable;
  std::map<std::string, TestResult> done;
  // Results in the lab's order so far, for a partial result.json if the grading stops.
  auto publish_done = [&] {
    GradeResult partial = result;
    for (const TestSpec& t : lab_.tests) {
      if (auto it = done.find(t.name); it != done.end()) partial.tests.push_back(it->second);
    }
    publish(partial);
  };
  if (mode_ == DeviceMode::gpu && toolchain_.compute_sanitizer.empty())
    result.notes.push_back("this build's CUDA toolkit has no compute-sanitizer: GPU correctness tests "
                           "ran without its memory, race and barrier checks (docs/gpu.md)");
  const int reruns_wanted = mode_ == DeviceMode::sim ? order_reruns() : 0;
  for (const TestSpec& t : lab_.tests) {
    if (t.kind != "correctness") continue;
    log("test: " + t.name);
    done[t.name] = runs_here(t) ? run_correctness(t) : skipped_without_gpu(t);
    if (mode_ == DeviceMode::gpu && t.device == "gpu" && t.visibility == Visibility::visible &&
        !toolchain_.compute_sanitizer.empty() && done[t.name].status == TestStatus::passed) {
      log("compute-sanitizer: " + t.name);
      check_under_sanitizer(done[t.name],
                            TaskInvocation{executable_, t.task, resolve_params(t.params),
                                           dataset_dir(t.dataset), 0, 1, limits(t)},
                            submission_runs_, toolchain_.compute_sanitizer, slug(t.name));
    }
    // Re-runs in other orders, the same settings otherwise: no run is special.
    std::vector<std::string> reruns;
    for (int n = 1; n <= reruns_wanted && mode_ == DeviceMode::sim && t.device == "gpu" &&
                    done[t.name].status == TestStatus::passed;
         ++n) {
      apply_schedule_check(done[t.name], run_seeds_[t.name], run_in_another_order(t, n),
                           t.visibility == Visibility::hidden);
      reruns.push_back(reordered_run_name(slug(t.name), n));
    }
    if (mode_ == DeviceMode::sim && runs_here(t))
      add_sim_findings(done[t.name], grading_dir_ / "runs", slug(t.name), result.notes, false,
                       reference_hint_counters_.count(t.name) ? &reference_hint_counters_[t.name]
                                                              : nullptr,
                       reruns);
    publish_done();
  }
  if (measures_any(done)) machine_lock.take_exclusive();
  for (const TestSpec& t : lab_.tests) {
    if (t.kind != "performance") continue;
    if (runs_here(t) && !not_measured_reason(t, done))
      log((sim_checked(t) ? "counting: " : "measuring: ") + t.name);
    done[t.name] = runs_here(t) ? run_performance(t, done) : skipped_without_gpu(t);
    if (sim_checked(t) && done[t.name].outcome == RunOutcome::ok)
      add_sim_findings(done[t.name], grading_dir_ / "runs", slug(t.name), result.notes, true,
                       reference_counters_.count(t.name) ? &reference_counters_[t.name] : nullptr);
    publish_done();
  }
  machine_lock.release();
  for (const TestSpec& t : lab_.tests) result.tests.push_back(done.at(t.name));
  return finish(result, t0);
}

}  // namespace

fs::path resolve_submission(const GradeOptions& options, const LabToolchain& lab) {
  if (options.reference_mode) return lab.reference_dir;
  if (options.submission_dir.empty()) return lab.dir / "skeleton";
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
  if (result.device.mode == "none") return kExitEnvironment;
  return kExitAllPassed;
}

}  // namespace parlab::grader
