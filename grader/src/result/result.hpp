#pragma once
// The one result model (DESIGN invariant 7). Runners fill these plain structs;
// reporters only read them. The JSON form (result_json.hpp) is canonical and
// versioned; every other report format is derived from the same struct.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parlab::grader {

inline constexpr int kResultSchemaVersion = 1;

// How one run of a lab executable ended. Anything but `ok` is the student's outcome,
// reported with a reason; it is never an exception in the grader.
enum class RunOutcome {
  ok,
  nonzero_exit,   // exited with a non-zero status
  crashed,        // killed by a signal (SIGSEGV, SIGABRT, ...)
  timeout,        // wall-clock limit hit, process group killed
  cpu_limit,      // RLIMIT_CPU hit (SIGXCPU)
  memory_limit,   // address-space limit hit (bad_alloc or killed while allocating)
  output_limit,   // stdout/stderr past the cap, or file-size limit (SIGXFSZ)
  bad_output,     // exited 0 but its output files are missing or malformed
  not_run,        // never started (build failed, earlier failure)
};

enum class TestStatus {
  passed,        // full points
  partial,       // some performance points
  failed,        // zero points through the student's code
  skipped,       // not run because of the submission's own failure (a correctness test it
                 // depends on failed); its points are lost
  inconclusive,  // measured but not judged (machine busy, reference baseline failed): costs
                 // the student nothing, left out of the graded total; re-run to judge it
  not_graded,    // cannot be graded on this machine or in this mode (GPU test in sim mode or
                 // without a GPU, fewer cores than min_cores, --no-perf, not chosen by
                 // --only); left out of the graded total
};

// The message of a test `grade --only` left out (grading/test_selection); the reports
// read it to say why, and what to run for the whole lab.
inline constexpr std::string_view kNotSelectedMessage = "not graded here: not selected (--only)";

// Statuses whose points count in the graded total (GradeResult::graded_max_score).
bool counts_in_graded_total(TestStatus s);

enum class Visibility { visible, hidden };

// The lab vocabulary the result carries (lab.toml's words, spec/lab_vocabulary.hpp has
// the rest): a test's kind, where a GPU lab's tests ran, a roofline's bound.
enum class TestKind { correctness, performance };

// Where a grading's tests run, as the session's policy sees it; the JSON form leaves
// `device` out for `host`.
enum class DeviceMode {
  host,  // a CPU lab: no device involved
  gpu,   // a CUDA device
  sim,   // the simulation backend
  none,  // --device none: GPU tests not graded here
};

// The language a submission is written in, a track of its lab (docs/lab-spec.md,
// "Tracks"); the JSON form leaves `track` out for cpp.
enum class Track {
  cpp,     // the lab's [lab] sources, compiled against its driver.cpp
  python,  // [tracks.python] sources, run by its driver.py
};

enum class RooflineBound {
  memory,   // GB/s against the measured copy bandwidth
  compute,  // GFLOP/s against the measured cuBLAS SGEMM rate
};

const char* to_string(RunOutcome o);
const char* to_string(TestStatus s);
const char* to_string(Visibility v);
const char* to_string(TestKind k);
const char* to_string(DeviceMode m);
const char* to_string(RooflineBound b);
const char* to_string(Track t);
// Each throws std::invalid_argument naming the word and the words it knows.
RunOutcome run_outcome_from_string(const std::string& s);
TestStatus test_status_from_string(const std::string& s);
Visibility visibility_from_string(const std::string& s);
TestKind test_kind_from_string(const std::string& s);
DeviceMode device_mode_from_string(const std::string& s);
RooflineBound roofline_bound_from_string(const std::string& s);
Track track_from_string(const std::string& s);

// The first element that did not match, so feedback can say exactly where.
struct Mismatch {
  std::string array;        // output array name, e.g. "file_mean"
  std::uint64_t index = 0;  // element index in that array
  std::string label;        // what the element is, e.g. "sensors_003.csv" (may be empty)
  double expected = 0;
  double got = 0;
  std::string tolerance;    // human text, e.g. "rtol 1e-09, atol 1e-12"
  std::uint64_t mismatches = 0;  // how many elements differ in all
  std::uint64_t compared = 0;    // how many elements were compared
};

// A sim-mode counter check's figures (docs/simulation.md, "Scored counter checks"): one
// simulator counter measured on the submission and on the reference, same task and data.
// Lower is better; the thresholds are multiples of the reference's figure.
struct CounterMeasurement {
  std::string counter;     // lab.toml's [tests.sim] counter, e.g. "global_loads_per_output"
  std::string what;        // the same in words, e.g. "global loads per global store"
  double value = 0;        // the submission's figure
  double reference = 0;    // the reference's, on the same data
  double ratio = 0;        // value / reference (0: the reference's figure is 0)
  double full_at = 0;      // ratio at or below which the test earns full points
  double zero_at = 0;      // ratio at or above which it earns none
};

// A side-by-side performance measurement (DESIGN invariant 2). A counter check's has
// `counter` set and no timing (its timing fields stay 0).
struct Measurement {
  std::string baseline;          // e.g. "reference:serial"
  std::string candidate;         // e.g. "submission:parallel_dynamic"
  std::vector<double> ratios;    // per pair: baseline_time / candidate_time (speedup)
  double median_ratio = 0;
  double spread = 0;             // relative spread of the ratios (IQR / median)
  double baseline_median_s = 0;
  double candidate_median_s = 0;
  double full_at = 0;            // ratio earning full credit (after core scaling)
  double zero_at = 0;            // ratio earning no credit (after core scaling)
  int cores = 0;                 // parallelism the thresholds were scaled to (0 = not scaled)
  int warmup_pairs = 0;          // pairs run and excluded
  bool noisy = false;            // spread stayed above the bound after re-measuring
  // What the grader observed itself (measure/observed_speed.hpp). median_ratio, the
  // ratio credited, is the harness's reported ratio capped by the observation.
  double reported_ratio = 0;     // median of the harness's per-pair ratios (untrusted)
  double observed_cap = 0;       // largest speedup the observed wall times support (0: none)
  double overhead_s = 0;         // the baseline's untimed cost per process
  double candidate_cores = 0;    // the candidate's observed CPU time / wall time
  bool timing_trusted = true;    // false: the reported ratio exceeded the observation
  // Parallelism observed by the grader (docs/scoring.md): the processes it saw in the
  // candidate's tree (0: not counted) and the cores a run of this test must keep busy
  // (0: no requirement).
  int candidate_processes = 0;
  int candidate_threads = 0;
  double work_spread = 0;        // CPU time over the busiest process's (thread's) (0: not seen)
  double required_cores = 0;     // the work_spread the test requires (0: no requirement)
  // The submission's own 1-worker run of the task over its parallel run, from the wall
  // times the grader saw (0: not measured), and what the test requires (0: nothing).
  double own_speedup = 0;
  double own_speedup_high = 0;   // the high end of its 95 % interval over the rounds (0: not known)
  double reference_own_speedup = 0;  // the reference's, over its own 1-worker runs (0: not known)
  double required_own_speedup = 0;
  int own_speedup_workers = 0;   // the parallel run's workers in that comparison
  // The 1-worker side was the reference's 1-worker run, faster than the submission's.
  bool own_speedup_reference_bound = false;
  // The median ratio's 95 % confidence interval (order statistics of the pairs).
  double ratio_low = 0;
  double ratio_high = 0;
  // A parallel baseline's test also shows the speedup over the serial reference (0: not
  // measured).
  double serial_speedup = 0;
  // A gain test: the reference's own candidate task against the same baseline, median
  // over the same pairs (0: not measured), and full_at as the lab states it, before it
  // was lowered to a share of that gain (score/scoring.hpp, within_reference_gain).
  double reference_ratio = 0;
  double reference_ratio_low = 0;  // the low end of its 95 % interval: what is asked of
  double spec_full_at = 0;
  // What disturbed the measurement (other processes' CPU time, steal, the baseline slower
  // than its quiet time); empty when the machine was quiet enough.
  std::string interference;
  double other_cores = 0;        // cores other programs kept busy (median, disturbed pairs)
  std::optional<CounterMeasurement> counter;  // sim mode's counter checks only
};

// A part of a GPU task timed apart from the kernels (e.g. "host_to_device"): median
// over the measured repetitions.
struct Phase {
  std::string name;
  double seconds = 0;
};

// Roofline feedback: how close the submission came to the device's measured peak.
struct Roofline {
  RooflineBound bound = RooflineBound::memory;
  std::string unit;       // "GB/s" | "GFLOP/s"
  double achieved = 0;    // declared work per call / median time
  double peak = 0;        // measured on this device in this grading
  double fraction = 0;    // achieved / peak
  std::string hint;       // shown when the fraction is low (empty otherwise)
};

struct TestResult {
  std::string name;
  TestKind kind = TestKind::correctness;
  Visibility visibility = Visibility::visible;
  double points = 0;
  double max_points = 0;
  TestStatus status = TestStatus::failed;
  RunOutcome outcome = RunOutcome::not_run;
  std::string message;           // one teaching sentence or short paragraph
  std::optional<Mismatch> mismatch;
  std::optional<Measurement> measurement;
  std::string stdout_tail;       // capped excerpt of the student's process output
  std::string stderr_tail;
  std::string dataset;           // dataset id (seed included for fresh data)
  double seconds = 0;            // wall time spent on this test
  std::vector<Phase> phases;     // GPU labs: transfers etc., timed apart (may be empty)
  std::optional<Roofline> roofline;
};

// A compiler diagnostic, with the path as the student knows it.
struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;
  std::string severity;          // "error" | "warning" | "note"
  std::string message;
};

struct BuildResult {
  bool ok = false;
  double seconds = 0;
  std::string command;           // the compile command, for reproduction
  std::string log;               // capped compiler output
  std::vector<Diagnostic> diagnostics;
  // Sim mode: the build stopped at a library header the simulator does not provide
  // ("<cuda_fp16.h> at kernels.cu:3"): the code may well be right, it needs a GPU.
  // Empty otherwise (and in results written before it existed).
  std::string needs_gpu;
  // Why, when needs_gpu is set: a library the simulator does not provide, or lines the
  // simulator and a GPU build may compile differently (grader/src/compile/compiled_views,
  // sim_without_nvcc). Not written to result.json (the reports say needs_gpu).
  enum class NeedsGpuCause { library, compiled_lines } needs_gpu_cause = NeedsGpuCause::library;
};

struct HostInfo {
  std::string hostname;
  std::string cpu_model;
  int cores = 0;                 // cores available to this process (affinity)
  std::string sandbox;           // "bubblewrap" | "rlimits only"
  std::string sandbox_level;     // "auto" | "require" | "off" (empty in older results)
  // How gradings are kept apart: "uid pool (uid 60500, reference uid 60501), cgroup v1
  // memory+pids+cpuacct, disk quota 1 GiB (tmpfs)"; empty in older results.
  std::string isolation;
  std::string gpu;               // empty when none
};

// Where a GPU lab's tests ran (mode host for CPU labs).
struct DeviceInfo {
  DeviceMode mode = DeviceMode::host;
  std::string name;              // the GPU, or the simulated device
  std::string detail;            // why this mode (e.g. the probe's error without a GPU)
  double bandwidth_gbs = 0;      // measured device-to-device copy bandwidth (0: not measured)
  double sgemm_gflops = 0;       // measured cuBLAS SGEMM rate (0: not measured)
};

// The phases of a grading, for the itemized time (result.json "phase_seconds").
enum class GradingPhase { setup, reference_runs, build, tests, checking_reruns, performance };

// Wall seconds of each phase; they sum to no more than the grading's `seconds`.
struct PhaseSeconds {
  double setup = 0;            // staging, the device probe, the mode's preparation
  double reference_runs = 0;   // expected outputs; in sim also the reference's counters
  double build = 0;            // compiling the submission
  double tests = 0;            // the correctness tests' own runs and checks
  double checking_reruns = 0;  // sim: the same test re-run in other orders
  double performance = 0;      // measuring, or in sim counting, the performance tests
  double& of(GradingPhase p);
  double sum() const;
};

struct GradeResult {
  int schema_version = kResultSchemaVersion;
  std::string grader_version;
  std::string lab_id;            // "lab01"
  std::string lab_title;
  std::string submission;        // path as given
  bool reference_mode = false;   // `--reference`: the reference graded as a submission
  Track track = Track::cpp;      // the submission's language (the lab's track graded)
  std::string started_at;        // ISO 8601 UTC
  double seconds = 0;
  double child_seconds = 0;      // wall time inside lab executables (grader overhead = rest)
  PhaseSeconds phase_seconds;    // `seconds` itemized by phase
  std::uint64_t fresh_seed = 0;  // the seed of this grading's fresh data (`--seed` repeats it)
  bool performance_enabled = true;
  HostInfo host;
  DeviceInfo device;
  BuildResult build;
  std::vector<TestResult> tests;
  double score = 0;
  double max_score = 0;
  // The points that could be judged here: max_score less the tests not graded here or
  // inconclusive. "60 / 60 graded here (100 in all)".
  double graded_max_score = 0;
  std::vector<std::string> notes;  // banners: sandbox missing, perf disabled, ...
  std::string interrupted;         // non-empty: the grading stopped early (why); the tests
                                   // listed are those finished, the score is theirs
};

}  // namespace parlab::grader
