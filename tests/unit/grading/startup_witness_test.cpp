// The anti-forgery cap where the candidate's process pays a start-up its baseline never
// pays (a CUDA program against a CPU one): the witness (the reference's own run of the
// candidate's task) tells that start-up from work done outside the timed call.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "grading/performance_test.hpp"
#include "measure/observed_speed.hpp"
#include "measure/side_by_side.hpp"

using namespace parlab::grader;

namespace {

// A GPU-shaped test: 2 warm-up + 10 measured calls per process.
constexpr int kCalls = 12;
constexpr double kCudaStartup = 0.5;   // context creation, module load: every CUDA program
constexpr double kCpuStartup = 0.005;  // a CPU program's start-up and I/O
constexpr double kCpuCall = 0.012;     // the CPU baseline's call
constexpr double kGpuCall = 0.001;     // an honest GPU call

// One process: `startup` s untimed, `calls` calls of `true_call` s of which the program
// reports `reported_call` s, and `hidden` s of work outside the timed calls.
TimedSample one_process(double startup, double true_call, double reported_call, int calls,
                    double hidden = 0) {
  return TimedSample{reported_call, startup + hidden + true_call * calls, -1, calls};
}

// Start-up jitter, run to run: a few ms either way.
double jitter(int i) { return 0.004 * ((i * 7) % 5 - 2) / 2.0; }

std::vector<TimedSample> cpu_baseline(int calls = kCalls) {
  std::vector<TimedSample> v;
  for (int i = 0; i < 5; ++i) v.push_back(one_process(kCpuStartup + jitter(i), kCpuCall, kCpuCall, calls));
  return v;
}
std::vector<TimedSample> gpu_reference(double call = kGpuCall, int calls = kCalls) {
  std::vector<TimedSample> v;
  for (int i = 0; i < 5; ++i) v.push_back(one_process(kCudaStartup + jitter(i + 2), call, call, calls));
  return v;
}

}  // namespace

TEST_CASE("witness: a 0.5 s start-up and 1 ms calls are honest, full ratio credited",
          "[observed][witness]") {
  const std::vector<TimedSample> honest = gpu_reference();  // the candidate, honest
  const double reported = kCpuCall / kGpuCall;              // 12x
  // Against the CPU baseline alone the start-up looks like hidden work:
  const ObservedSpeed without = observed_speed(cpu_baseline(), honest);
  CHECK(claims_beyond_observation(reported, without));
  // With the reference's own GPU runs as the witness of what start-up costs:
  const ObservedSpeed with = observed_speed(cpu_baseline(), honest, gpu_reference());
  CHECK(with.witnessed);
  CHECK(with.overhead_s == Approx(kCudaStartup).margin(0.005));
  CHECK_FALSE(claims_beyond_observation(reported, with));
  CHECK(std::min(reported, with.cap) == Approx(reported));  // the whole 12x is credited
  // 12 ms of timed work beside ~50 ms of start-up noise: too little to see a lie in.
  CHECK_FALSE(with.resolvable);
}

TEST_CASE("witness: a slower honest start-up than the reference's is still honest",
          "[observed][witness]") {
  std::vector<TimedSample> cand;
  // 30 ms more untimed (its own allocations, a bigger binary): within the slack.
  for (int i = 0; i < 5; ++i) cand.push_back(one_process(kCudaStartup + 0.03, kGpuCall, kGpuCall, kCalls));
  const ObservedSpeed o = observed_speed(cpu_baseline(), cand, gpu_reference());
  CHECK_FALSE(claims_beyond_observation(kCpuCall / kGpuCall, o));
}

// Forgeries on a resolvable shape: the task's timed work (100 calls of 2.5 ms) is four
// slacks or more, as the lab's performance datasets and call counts must make it.
TEST_CASE("witness: forgeries still earn nothing with a 0.5 s start-up", "[observed][witness]") {
  constexpr int calls = 100;
  constexpr double call = 0.0025;
  const std::vector<TimedSample> base = cpu_baseline(calls);
  const std::vector<TimedSample> witness = gpu_reference(call, calls);
  const double honest_ratio = kCpuCall / call;  // 4.8x
  std::vector<TimedSample> precompute, lying_timer, launched_early, honest;
  for (int i = 0; i < 5; ++i) {
    const double startup = kCudaStartup + jitter(i);
    // All the work in a static constructor; each timed call returns the stored answer.
    precompute.push_back(one_process(startup, 0.00001, 0.00001, calls, call * calls));
    // An interposed clock or a replaced timing writer: 1 % of the true time reported.
    lying_timer.push_back(one_process(startup, call, call / 100, calls));
    // The kernels launched before each timed region; the timer sees only the wait's end.
    launched_early.push_back(one_process(startup, call, call / 20, calls));
    honest.push_back(one_process(startup, call, call, calls));
  }
  const ObservedSpeed o_honest = observed_speed(base, honest, witness);
  REQUIRE(o_honest.resolvable);
  CHECK_FALSE(claims_beyond_observation(honest_ratio, o_honest));

  const ObservedSpeed o_pre = observed_speed(base, precompute, witness);
  CHECK(claims_beyond_observation(kCpuCall / 0.00001, o_pre));
  CHECK(o_pre.cap < 1.5 * honest_ratio);

  const ObservedSpeed o_lie = observed_speed(base, lying_timer, witness);
  CHECK(claims_beyond_observation(100 * honest_ratio, o_lie));

  const ObservedSpeed o_early = observed_speed(base, launched_early, witness);
  CHECK(claims_beyond_observation(20 * honest_ratio, o_early));
}

TEST_CASE("witness runs follow the pairs, a failed witness is not the student's",
          "[measure][witness]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 3;
  TimedRun base = [](std::string&) -> std::optional<TimedSample> {
    return one_process(kCpuStartup, kCpuCall, kCpuCall, kCalls);
  };
  TimedRun cand = [](std::string&) -> std::optional<TimedSample> {
    return one_process(kCudaStartup, kGpuCall, kGpuCall, kCalls);
  };
  int witness_runs = 0;
  SideBySideExtras extras;
  extras.witness = [&](std::string&) -> std::optional<TimedSample> {
    ++witness_runs;
    return one_process(kCudaStartup, kGpuCall, kGpuCall, kCalls);
  };
  SideBySide s = measure_side_by_side(base, cand, p, [] { return 0.0; }, extras);
  REQUIRE(s.ok);
  CHECK(witness_runs == extras.witness_runs);
  CHECK(s.observed.witnessed);
  CHECK(s.measurement.timing_trusted);
  CHECK(s.measurement.median_ratio == Approx(12.0));
  // Without the witness the same honest pairs are "not trusted" (the bug it fixes).
  SideBySide bare = measure_side_by_side(base, cand, p, [] { return 0.0; });
  REQUIRE(bare.ok);
  CHECK_FALSE(bare.measurement.timing_trusted);

  extras.witness = [](std::string& err) -> std::optional<TimedSample> {
    err = "time limit";
    return std::nullopt;
  };
  SideBySide failed = measure_side_by_side(base, cand, p, [] { return 0.0; }, extras);
  CHECK_FALSE(failed.ok);
  CHECK(failed.witness_failed);
  CHECK_FALSE(failed.candidate_failed);
  CHECK(failed.error.find("time limit") != std::string::npos);
}

TEST_CASE("witness: only GPU tests against another kind of program need one",
          "[observed][witness][spec]") {
  int witnessed = 0;
  for (const LabSpec& lab : load_all_labs(std::filesystem::path(PARLAB_SOURCE_DIR) / "labs")) {
    for (const TestSpec& t : lab.tests) {
      if (!t.performance) continue;
      const bool needs = baseline_of_another_kind(t, lab);
      INFO(lab.id << ": " << t.name);
      if (t.performance->baseline_program == BaselineProgram::cpu_reference) CHECK(needs);
      // A CPU test, or a GPU task against the reference's GPU code: same kind.
      if (t.device == Device::cpu) CHECK_FALSE(needs);
      if (t.device == Device::gpu && t.performance->baseline_program == BaselineProgram::reference &&
          t.performance->baseline_task == t.task) {
        CHECK_FALSE(needs);
      }
      witnessed += needs ? 1 : 0;
    }
  }
  // lab02, lab03, lab04, lab05 each have a GPU-against-CPU test.
  CHECK(witnessed >= 4);
  const LabSpec lab04 = [] {
    for (const LabSpec& l : load_all_labs(std::filesystem::path(PARLAB_SOURCE_DIR) / "labs")) {
      if (l.id == "lab04") return l;
    }
    throw std::runtime_error("lab04 not found");
  }();
  for (const TestSpec& t : lab04.tests) {
    if (t.name == "sum: GPU kernel against all CPU cores") CHECK(baseline_of_another_kind(t, lab04));
    if (t.name == "sum: speed against the reference's block tree") {
      CHECK_FALSE(baseline_of_another_kind(t, lab04));
    }
  }
}

TEST_CASE("gain tests: the shipped labs' tests against another of the reference's tasks",
          "[spec][gain]") {
  std::vector<std::string> gains;
  for (const LabSpec& lab : load_all_labs(std::filesystem::path(PARLAB_SOURCE_DIR) / "labs")) {
    for (const TestSpec& t : lab.tests) {
      if (!measures_reference_gain(t, lab)) continue;
      INFO(lab.id << ": " << t.name);
      // Never with a witness too: another kind's reference figure comes from the witness.
      CHECK_FALSE(baseline_of_another_kind(t, lab));
      CHECK(t.performance->baseline_task != t.task);
      gains.push_back(lab.id + ": " + t.name);
    }
  }
  CHECK_THAT(gains, Catch::VectorContains(std::string("lab01: dynamic beats static on skewed sizes")));
  CHECK_THAT(gains, Catch::VectorContains(std::string("lab06: pinned copies beat pageable")));
  // Same task against the reference's: not a gain test.
  CHECK_THAT(gains, !Catch::VectorContains(std::string("lab01: parallel speedup")));
}
