#include "grading/run_feedback.hpp"

namespace parlab::grader {

namespace {
constexpr std::size_t kTailBytes = 4000;
}

std::string output_tail(const std::string& text, bool truncated) {
  std::string t = text.size() > kTailBytes ? "..." + text.substr(text.size() - kTailBytes) : text;
  if (truncated) t += "\n[output truncated]";
  return t;
}

void fail_from_run(TestResult& r, const TaskRun& run) {
  r.status = TestStatus::failed;
  r.outcome = run.run.outcome;
  r.message = run.message;
  r.stdout_tail = output_tail(run.run.stdout_text, run.run.stdout_truncated);
  r.stderr_tail = output_tail(run.run.stderr_text, run.run.stderr_truncated);
}

}  // namespace parlab::grader
