// Names of the result enums, as they appear in the JSON form and in every report.
// One table per enum, so to_string and from_string can never disagree.
#include "result/result.hpp"

#include "result/name_table.hpp"

namespace parlab::grader {
namespace {

constexpr NameTable<RunOutcome, 9> kRunOutcomeNames{{
    {RunOutcome::ok, "ok"},
    {RunOutcome::nonzero_exit, "nonzero_exit"},
    {RunOutcome::crashed, "crashed"},
    {RunOutcome::timeout, "timeout"},
    {RunOutcome::cpu_limit, "cpu_limit"},
    {RunOutcome::memory_limit, "memory_limit"},
    {RunOutcome::output_limit, "output_limit"},
    {RunOutcome::bad_output, "bad_output"},
    {RunOutcome::not_run, "not_run"},
}};

constexpr NameTable<TestStatus, 6> kTestStatusNames{{
    {TestStatus::passed, "passed"},
    {TestStatus::partial, "partial"},
    {TestStatus::failed, "failed"},
    {TestStatus::skipped, "skipped"},
    {TestStatus::inconclusive, "inconclusive"},
    {TestStatus::not_graded, "not_graded"},
}};

constexpr NameTable<Visibility, 2> kVisibilityNames{{
    {Visibility::visible, "visible"},
    {Visibility::hidden, "hidden"},
}};

constexpr NameTable<TestKind, 2> kTestKindNames{{
    {TestKind::correctness, "correctness"},
    {TestKind::performance, "performance"},
}};

constexpr NameTable<DeviceMode, 4> kDeviceModeNames{{
    {DeviceMode::host, "host"},
    {DeviceMode::gpu, "gpu"},
    {DeviceMode::sim, "sim"},
    {DeviceMode::none, "none"},
}};

constexpr NameTable<RooflineBound, 2> kRooflineBoundNames{{
    {RooflineBound::memory, "memory"},
    {RooflineBound::compute, "compute"},
}};

constexpr NameTable<Track, 2> kTrackNames{{
    {Track::cpp, "cpp"},
    {Track::python, "python"},
}};

}  // namespace

bool counts_in_graded_total(TestStatus s) {
  return s != TestStatus::inconclusive && s != TestStatus::not_graded;
}

const char* to_string(RunOutcome o) { return name_of(kRunOutcomeNames, o); }
const char* to_string(TestStatus s) { return name_of(kTestStatusNames, s); }
const char* to_string(Visibility v) { return name_of(kVisibilityNames, v); }
const char* to_string(TestKind k) { return name_of(kTestKindNames, k); }
const char* to_string(Track t) { return name_of(kTrackNames, t); }
const char* to_string(DeviceMode m) { return name_of(kDeviceModeNames, m); }
const char* to_string(RooflineBound b) { return name_of(kRooflineBoundNames, b); }

RunOutcome run_outcome_from_string(const std::string& s) {
  return value_of(kRunOutcomeNames, s, "run outcome");
}
TestStatus test_status_from_string(const std::string& s) {
  return value_of(kTestStatusNames, s, "test status");
}
Visibility visibility_from_string(const std::string& s) {
  return value_of(kVisibilityNames, s, "visibility");
}

TestKind test_kind_from_string(const std::string& s) {
  return value_of(kTestKindNames, s, "test kind");
}
Track track_from_string(const std::string& s) { return value_of(kTrackNames, s, "track"); }
DeviceMode device_mode_from_string(const std::string& s) {
  return value_of(kDeviceModeNames, s, "device mode");
}
RooflineBound roofline_bound_from_string(const std::string& s) {
  return value_of(kRooflineBoundNames, s, "roofline bound");
}

double& PhaseSeconds::of(GradingPhase p) {
  switch (p) {
    case GradingPhase::setup: return setup;
    case GradingPhase::reference_runs: return reference_runs;
    case GradingPhase::build: return build;
    case GradingPhase::tests: return tests;
    case GradingPhase::checking_reruns: return checking_reruns;
    case GradingPhase::performance: return performance;
  }
  return setup;
}

double PhaseSeconds::sum() const {
  return setup + reference_runs + build + tests + checking_reruns + performance;
}

}  // namespace parlab::grader
