#include "grading/unsupported_feature.hpp"

#include "grading/sealed_report.hpp"
#include "grading/sim_mode.hpp"
#include "process/exit_classifier.hpp"

namespace parlab::grader {
namespace {

constexpr std::uint64_t kFindingsCap = 256 << 10;
constexpr std::size_t kMaxFeatureChars = 160;  // one line in a report

}  // namespace

std::string unsupported_feature_of(const TaskRun& run) {
  if (run.run.signal != 0 || run.run.exit_code != process::kSimUnsupportedFeatureExitCode) return "";
  const SimReport report =
      read_sim_report(run.runs_root, run.run_name, kSimFindingsFile, "findings", kFindingsCap);
  if (!report.problem.empty() || !report.text) return "";  // altered or absent: not trusted
  for (const SimFinding& finding : parse_sim_findings(*report.text)) {
    if (finding.kind != "unsupported_feature" || finding.summary.empty()) continue;
    std::string feature = finding.summary.substr(0, finding.summary.find('\n'));
    if (feature.size() > kMaxFeatureChars) feature = feature.substr(0, kMaxFeatureChars) + "...";
    return feature;
  }
  return "";
}

bool leave_out_unsupported_feature(const TaskRun& run, TestResult& r) {
  const std::string feature = unsupported_feature_of(run);
  if (feature.empty()) return false;
  r.status = TestStatus::not_graded;
  r.points = 0;
  r.outcome = run.run.outcome;
  r.message = "not graded here: needs a GPU (" + feature +
              "): correct CUDA that the simulator does not run; a GPU grading counts it";
  return true;
}

}  // namespace parlab::grader
