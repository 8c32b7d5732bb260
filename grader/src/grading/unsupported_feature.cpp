#include "grading/unsupported_feature.hpp"

#include "grading/sealed_report.hpp"
#include "grading/sim_mode.hpp"
#include "parlab_sim/exit_codes.hpp"

namespace parlab::grader {
namespace {

constexpr std::uint64_t kFindingsCap = 256 << 10;
constexpr std::size_t kMaxFeatureChars = 160;  // one line in a report

}  // namespace

std::string unsupported_feature_of(const TaskRun& run) {
  if (run.run.signal != 0 || run.run.exit_code != parlab_sim::kExitUnsupportedFeature) return "";
  // The started process stopped there (its sealed stop record), not a child it forked.
  if (!run.stop || !run.stop->main_process || run.stop->exit_code != run.run.exit_code) return "";
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

namespace {

// "In file included from kernels.cu:3:" (or "...:3,") -> "kernels.cu:3".
std::string includer_place(const std::string& log, const std::string& header_file) {
  const std::size_t error_at = log.find(header_file);
  if (error_at == std::string::npos) return "";
  const std::string lead = "In file included from ";
  const std::size_t from = log.rfind(lead, error_at);
  if (from == std::string::npos) return "";
  const std::size_t start = from + lead.size();
  std::string place = log.substr(start, log.find('\n', start) - start);
  while (!place.empty() && (place.back() == ':' || place.back() == ',')) place.pop_back();
  return place.size() <= kMaxFeatureChars ? place : "";
}

}  // namespace

std::string unsupported_header_of(const BuildResult& build) {
  const std::string says = "parlab sim: ";
  const std::string refused = " is not supported by the simulator";
  for (const Diagnostic& d : build.diagnostics) {
    if (d.severity != "error") continue;
    const std::size_t what = d.message.find(says);
    const std::size_t end = d.message.find(refused);
    if (d.file.find("/cuda_compat/") == std::string::npos || what == std::string::npos ||
        end == std::string::npos || end <= what + says.size())
      return "";  // the first error is another one: the build failed for it
    std::string header = d.message.substr(what + says.size(), end - what - says.size());
    if (header.size() > kMaxFeatureChars) return "";
    const std::string place = includer_place(build.log, d.file + ":" + std::to_string(d.line));
    return place.empty() ? header : header + " at " + place;
  }
  return "";
}

}  // namespace parlab::grader
