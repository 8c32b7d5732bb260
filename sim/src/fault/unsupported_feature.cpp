// A feature the simulator does not run: a sealed finding the grader trusts (the feature
// and its place), a report on stderr for a person, and the documented exit status.
#include "parlab_sim/unsupported_feature.hpp"

#include <string>

#include "fault/fatal_report.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/source_names.hpp"
#include "report/diagnostics.hpp"

namespace parlab_sim {

void stop_at_unsupported_feature(const char* feature, const char* file, unsigned line) {
  std::string what = feature != nullptr ? feature : "a feature";
  if (file != nullptr && *file != '\0') {
    what += std::string(" at ") + detail::source_display_name(file) + ":" + std::to_string(line);
  }
  detail::report_finding(detail::kFindingUnsupportedFeature, what, what,
                         "needs a GPU: " + what + " is correct CUDA that the simulator does not run");
  detail::ReportText text;
  detail::begin_report(text, "stopped: the simulator does not run ");
  text.add(what.c_str());
  text.add(":\n  not graded here: needs a GPU (the tests that reach it are left out, not failed)");
  detail::finish_report(text, kExitUnsupportedFeature);
}

}  // namespace parlab_sim
