#include "result_equality.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

namespace parlab::grader::testing {
namespace {

void check_same(const Mismatch& a, const Mismatch& b) {
  CHECK(a.array == b.array);
  CHECK(a.index == b.index);
  CHECK(a.label == b.label);
  CHECK(same_number(a.expected, b.expected));
  CHECK(same_number(a.got, b.got));
  CHECK(a.tolerance == b.tolerance);
  CHECK(a.mismatches == b.mismatches);
  CHECK(a.compared == b.compared);
}

void check_same(const Measurement& a, const Measurement& b) {
  CHECK(a.baseline == b.baseline);
  CHECK(a.candidate == b.candidate);
  REQUIRE(a.ratios.size() == b.ratios.size());
  for (std::size_t i = 0; i < a.ratios.size(); ++i) CHECK(same_number(a.ratios[i], b.ratios[i]));
  CHECK(same_number(a.median_ratio, b.median_ratio));
  CHECK(same_number(a.spread, b.spread));
  CHECK(same_number(a.baseline_median_s, b.baseline_median_s));
  CHECK(same_number(a.candidate_median_s, b.candidate_median_s));
  CHECK(same_number(a.full_at, b.full_at));
  CHECK(same_number(a.zero_at, b.zero_at));
  CHECK(a.cores == b.cores);
  CHECK(a.warmup_pairs == b.warmup_pairs);
  CHECK(a.noisy == b.noisy);
  CHECK(same_number(a.reported_ratio, b.reported_ratio));
  CHECK(same_number(a.observed_cap, b.observed_cap));
  CHECK(a.candidate_processes == b.candidate_processes);
  CHECK(a.candidate_threads == b.candidate_threads);
  CHECK(same_number(a.work_spread, b.work_spread));
  CHECK(same_number(a.required_cores, b.required_cores));
  CHECK(same_number(a.ratio_low, b.ratio_low));
  CHECK(same_number(a.ratio_high, b.ratio_high));
  CHECK(same_number(a.serial_speedup, b.serial_speedup));
  CHECK(same_number(a.reference_ratio, b.reference_ratio));
  CHECK(same_number(a.reference_ratio_low, b.reference_ratio_low));
  CHECK(same_number(a.spec_full_at, b.spec_full_at));
  CHECK(a.interference == b.interference);
  REQUIRE(a.counter.has_value() == b.counter.has_value());
  if (a.counter) {
    CHECK(a.counter->counter == b.counter->counter);
    CHECK(a.counter->what == b.counter->what);
    CHECK(same_number(a.counter->value, b.counter->value));
    CHECK(same_number(a.counter->reference, b.counter->reference));
    CHECK(same_number(a.counter->ratio, b.counter->ratio));
    CHECK(same_number(a.counter->full_at, b.counter->full_at));
    CHECK(same_number(a.counter->zero_at, b.counter->zero_at));
  }
}

void check_same(const TestResult& a, const TestResult& b) {
  INFO("test " << a.name);
  CHECK(a.name == b.name);
  CHECK(a.kind == b.kind);
  CHECK(a.visibility == b.visibility);
  CHECK(same_number(a.points, b.points));
  CHECK(same_number(a.max_points, b.max_points));
  CHECK(a.status == b.status);
  CHECK(a.outcome == b.outcome);
  CHECK(a.message == b.message);
  REQUIRE(a.mismatch.has_value() == b.mismatch.has_value());
  if (a.mismatch) check_same(*a.mismatch, *b.mismatch);
  REQUIRE(a.measurement.has_value() == b.measurement.has_value());
  if (a.measurement) check_same(*a.measurement, *b.measurement);
  CHECK(a.stdout_tail == b.stdout_tail);
  CHECK(a.stderr_tail == b.stderr_tail);
  CHECK(a.dataset == b.dataset);
  CHECK(same_number(a.seconds, b.seconds));
  REQUIRE(a.phases.size() == b.phases.size());
  for (std::size_t i = 0; i < a.phases.size(); ++i) {
    CHECK(a.phases[i].name == b.phases[i].name);
    CHECK(same_number(a.phases[i].seconds, b.phases[i].seconds));
  }
  REQUIRE(a.roofline.has_value() == b.roofline.has_value());
  if (a.roofline) {
    CHECK(a.roofline->bound == b.roofline->bound);
    CHECK(a.roofline->unit == b.roofline->unit);
    CHECK(same_number(a.roofline->achieved, b.roofline->achieved));
    CHECK(same_number(a.roofline->peak, b.roofline->peak));
    CHECK(same_number(a.roofline->fraction, b.roofline->fraction));
    CHECK(a.roofline->hint == b.roofline->hint);
  }
}

void check_same(const BuildResult& a, const BuildResult& b) {
  CHECK(a.ok == b.ok);
  CHECK(same_number(a.seconds, b.seconds));
  CHECK(a.command == b.command);
  CHECK(a.log == b.log);
  REQUIRE(a.diagnostics.size() == b.diagnostics.size());
  for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
    CHECK(a.diagnostics[i].file == b.diagnostics[i].file);
    CHECK(a.diagnostics[i].line == b.diagnostics[i].line);
    CHECK(a.diagnostics[i].column == b.diagnostics[i].column);
    CHECK(a.diagnostics[i].severity == b.diagnostics[i].severity);
    CHECK(a.diagnostics[i].message == b.diagnostics[i].message);
  }
}

}  // namespace

bool same_number(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;  // bit-exact: lossless means no rounding
}

void check_same(const GradeResult& a, const GradeResult& b) {
  CHECK(a.schema_version == b.schema_version);
  CHECK(a.grader_version == b.grader_version);
  CHECK(a.lab_id == b.lab_id);
  CHECK(a.lab_title == b.lab_title);
  CHECK(a.submission == b.submission);
  CHECK(a.reference_mode == b.reference_mode);
  CHECK(a.started_at == b.started_at);
  CHECK(same_number(a.seconds, b.seconds));
  CHECK(same_number(a.child_seconds, b.child_seconds));
  CHECK(same_number(a.phase_seconds.setup, b.phase_seconds.setup));
  CHECK(same_number(a.phase_seconds.reference_runs, b.phase_seconds.reference_runs));
  CHECK(same_number(a.phase_seconds.build, b.phase_seconds.build));
  CHECK(same_number(a.phase_seconds.tests, b.phase_seconds.tests));
  CHECK(same_number(a.phase_seconds.checking_reruns, b.phase_seconds.checking_reruns));
  CHECK(same_number(a.phase_seconds.performance, b.phase_seconds.performance));
  CHECK(a.fresh_seed == b.fresh_seed);
  CHECK(a.performance_enabled == b.performance_enabled);
  CHECK(a.host.hostname == b.host.hostname);
  CHECK(a.host.cpu_model == b.host.cpu_model);
  CHECK(a.host.cores == b.host.cores);
  CHECK(a.host.sandbox == b.host.sandbox);
  CHECK(a.host.gpu == b.host.gpu);
  CHECK(a.device.mode == b.device.mode);
  CHECK(a.device.name == b.device.name);
  CHECK(a.device.detail == b.device.detail);
  CHECK(same_number(a.device.bandwidth_gbs, b.device.bandwidth_gbs));
  CHECK(same_number(a.device.sgemm_gflops, b.device.sgemm_gflops));
  check_same(a.build, b.build);
  REQUIRE(a.tests.size() == b.tests.size());
  for (std::size_t i = 0; i < a.tests.size(); ++i) check_same(a.tests[i], b.tests[i]);
  CHECK(same_number(a.score, b.score));
  CHECK(same_number(a.max_score, b.max_score));
  CHECK(same_number(a.graded_max_score, b.graded_max_score));
  CHECK(a.notes == b.notes);
}

}  // namespace parlab::grader::testing
