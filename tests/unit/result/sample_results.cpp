#include "sample_results.hpp"

#include <limits>

namespace parlab::grader::testing {
namespace {

GradeResult common_header() {
  GradeResult r;
  r.grader_version = "0.1.0";
  r.lab_id = "lab01";
  r.lab_title = "Multiprocessing file statistics";
  r.submission = "/home/student/lab01-multiprocessing";
  r.started_at = "2024-03-01T12:00:00Z";
  r.seconds = 42.7;
  r.child_seconds = 38.25;
  r.phase_seconds = {.setup = 0.5, .reference_runs = 6.25, .build = 3.5, .tests = 20.0,
                     .checking_reruns = 8.0, .performance = 4.25};
  r.fresh_seed = 2718281828ULL;
  r.host = {.hostname = "lab-node-07",
            .cpu_model = "AMD EPYC 7763 64-Core Processor",
            .cores = 8,
            .sandbox = "bubblewrap",
            .gpu = ""};
  r.notes = {"GPU tests not graded here: no CUDA device was found on this machine"};
  return r;
}

TestResult passed_correctness() {
  TestResult t;
  t.name = "correctness_small";
  t.kind = TestKind::correctness;
  t.points = t.max_points = 10;
  t.status = TestStatus::passed;
  t.outcome = RunOutcome::ok;
  t.dataset = "sensor_logs(files=8, seed=1)";
  t.seconds = 0.42;
  return t;
}

TestResult partial_performance() {
  TestResult t;
  t.name = "speedup_parallel";
  t.kind = TestKind::performance;
  t.points = 5.33;
  t.max_points = 15;
  t.status = TestStatus::partial;
  t.outcome = RunOutcome::ok;
  t.message = "Your parallel version is 1.42x faster than the serial reference; "
              "full credit needs 2x on 4 cores.";
  Measurement m;
  m.baseline = "reference:serial";
  m.candidate = "submission:parallel_dynamic";
  m.ratios = {1.38, 1.42, 1.45, 1.40, 1.47, 1.36, 1.44, 1.41, 1.43};
  m.median_ratio = 1.42;
  m.spread = 0.06;
  m.baseline_median_s = 0.8123;
  m.candidate_median_s = 0.5721;
  m.full_at = 2.0;
  m.zero_at = 1.1;
  m.cores = 4;
  m.warmup_pairs = 2;
  // What the grader observed itself (written only when a cap was observed).
  m.reported_ratio = 1.42;
  m.observed_cap = 1.6;
  m.overhead_s = 0.05;
  m.candidate_cores = 3.7;
  m.candidate_processes = 5;
  m.candidate_threads = 5;
  m.work_spread = 3.9;
  m.required_cores = 1.5;
  m.ratio_low = 1.38;
  m.ratio_high = 1.45;
  m.serial_speedup = 1.42;
  // A gain test on a machine where the reference gained little: full_at lowered.
  m.reference_ratio = 2.8;
  m.reference_ratio_low = 2.6;
  m.spec_full_at = 2.5;
  t.measurement = m;
  t.dataset = "sensor_logs(files=256, seed=2718281828)";
  t.seconds = 12.5;
  return t;
}

TestResult failed_with_mismatch() {
  TestResult t;
  t.name = "correctness_fresh";
  t.kind = TestKind::correctness;
  t.max_points = 20;
  t.status = TestStatus::failed;
  t.outcome = RunOutcome::ok;
  t.message = "file_mean differs from the reference: a NaN often means a division by a zero count.";
  t.mismatch = Mismatch{.array = "file_mean",
                        .index = 17,
                        .label = "sensors_017.csv",
                        .expected = 20.5,
                        .got = std::numeric_limits<double>::quiet_NaN(),
                        .tolerance = "rtol 1e-09, atol 1e-12",
                        .mismatches = 3,
                        .compared = 64};
  t.stdout_tail = "processed 64 files\n";
  t.dataset = "sensor_logs(files=64, seed=2718281828)";
  t.seconds = 0.93;
  return t;
}

TestResult hidden_failed() {
  TestResult t;
  t.name = "correctness_hidden";
  t.kind = TestKind::correctness;
  t.visibility = Visibility::hidden;
  t.max_points = 15;
  t.status = TestStatus::failed;
  t.outcome = RunOutcome::ok;
  t.message = "Wrong result on a hidden dataset: check files whose last line has no newline.";
  t.mismatch = Mismatch{.array = "file_max",
                        .index = 17,
                        .label = kHiddenLabel,
                        .expected = 7391.25,
                        .got = 7391.5,
                        .tolerance = "rtol 1e-09, atol 1e-12",
                        .mismatches = 1,
                        .compared = 200};
  t.stderr_tail = std::string(kHiddenStderr) + "\n";
  t.dataset = kHiddenDataset;
  t.seconds = 1.1;
  return t;
}

TestResult crashed() {
  TestResult t;
  t.name = "correctness_large";
  t.kind = TestKind::correctness;
  t.max_points = 20;
  t.status = TestStatus::failed;
  t.outcome = RunOutcome::crashed;
  t.message = "The program was killed by SIGSEGV (segmentation fault): look for an index "
              "past the end of an array.";
  t.stderr_tail = "worker 3: reading sensors_120.csv\nSegmentation fault (core dumped)\n";
  t.dataset = "sensor_logs(files=512, seed=3)";
  t.seconds = 2.25;
  return t;
}

TestResult skipped_gpu() {
  TestResult t;
  t.name = "gpu_speedup";
  t.kind = TestKind::performance;
  t.max_points = 10;
  t.status = TestStatus::not_graded;
  t.outcome = RunOutcome::not_run;
  t.message = "not graded here: no CUDA GPU on this machine";
  return t;
}

TestResult inconclusive_performance() {
  TestResult t;
  t.name = "speedup_processes";
  t.kind = TestKind::performance;
  t.max_points = 10;
  t.status = TestStatus::inconclusive;
  t.outcome = RunOutcome::ok;
  t.message = "The machine was too busy to measure reliably; this test costs you nothing, "
              "re-run to see your real speedup.";
  Measurement m;
  m.baseline = "reference:serial";
  m.candidate = "submission:processes";
  m.ratios = {2.1, 3.4, 1.9, 2.7, 3.8};
  m.median_ratio = 2.7;
  m.spread = 0.31;
  m.baseline_median_s = 0.8101;
  m.candidate_median_s = 0.3;
  m.full_at = 3.0;
  m.zero_at = 1.2;
  m.cores = 4;
  m.warmup_pairs = 1;
  m.noisy = true;
  m.ratio_low = 1.9;
  m.ratio_high = 3.4;
  m.candidate_cores = 3.6;
  m.candidate_processes = 4;
  m.required_cores = 3;
  m.interference = "other processes used 2.5 cores";
  m.reported_ratio = 2.7;
  m.observed_cap = 3.1;
  m.overhead_s = 0.02;
  t.measurement = m;
  t.dataset = "sensor_logs(files=256, seed=2718281828)";
  t.seconds = 9.75;
  return t;
}

}  // namespace

GradeResult sample_grade_result() {
  GradeResult r = common_header();
  r.build = {.ok = true,
             .seconds = 3.2,
             .command = "g++ -std=c++20 -O2 -pthread -o lab01 file_stats.cpp driver.cpp",
             .log = "file_stats.cpp:58:12: warning: unused variable 'total' [-Wunused-variable]\n",
             .diagnostics = {{.file = "file_stats.cpp",
                              .line = 58,
                              .column = 12,
                              .severity = "warning",
                              .message = "unused variable 'total' [-Wunused-variable]"}}};
  r.tests = {passed_correctness(), partial_performance(), failed_with_mismatch(), hidden_failed(),
             crashed(),            skipped_gpu(),         inconclusive_performance()};
  r.score = 0;
  r.max_score = 0;
  for (const TestResult& t : r.tests) {
    r.score += t.points;
    r.max_score += t.max_points;
    if (counts_in_graded_total(t.status)) r.graded_max_score += t.max_points;
  }
  return r;
}

GradeResult sample_build_failed_result() {
  GradeResult r = common_header();
  r.seconds = 3.9;
  r.build = {.ok = false,
             .seconds = 2.1,
             .command = "g++ -std=c++20 -O2 -pthread -o lab01 file_stats.cpp driver.cpp",
             .log = "file_stats.cpp: In function 'void count_lines(const char*)':\n"
                    "file_stats.cpp:42:7: error: 'count' was not declared in this scope\n"
                    "   42 |       count += 1;\n"
                    "      |       ^~~~~\n",
             .diagnostics = {{.file = "file_stats.cpp",
                              .line = 42,
                              .column = 7,
                              .severity = "error",
                              .message = "'count' was not declared in this scope"}}};
  for (TestResult t : sample_grade_result().tests) {
    TestResult not_run;
    not_run.name = t.name;
    not_run.kind = t.kind;
    not_run.visibility = t.visibility;
    not_run.max_points = t.max_points;
    not_run.status = TestStatus::failed;
    not_run.outcome = RunOutcome::not_run;
    not_run.message = "not run: the build failed";
    r.tests.push_back(not_run);
    r.max_score += t.max_points;
    r.graded_max_score += t.max_points;
  }
  r.graded_max_score = r.max_score;
  return r;
}

}  // namespace parlab::grader::testing
