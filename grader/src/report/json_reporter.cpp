// The canonical form itself: what every other format can be re-derived from.
#include "report/reporter.hpp"
#include "result/result_json.hpp"

namespace parlab::grader {
namespace {

class JsonReporter final : public Reporter {
 public:
  std::string render(const GradeResult& result) const override {
    return result_json_text(result);
  }
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter(const ReportOptions& /*options: JSON holds everything*/) {
  return std::make_unique<JsonReporter>();
}

}  // namespace parlab::grader
