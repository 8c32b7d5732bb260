#include "grading/gpu_sanitizer.hpp"

#include "grading/sanitizer_report.hpp"
#include "parlab/harness/sanitizer_param.hpp"

namespace parlab::grader {

const std::vector<std::string>& sanitizer_tools() {
  static const std::vector<std::string> tools = {"memcheck", "racecheck", "synccheck", "initcheck"};
  return tools;
}

std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, const std::string& tool) {
  return {sanitizer.string(), "--tool", tool, "--error-exitcode", std::to_string(kSanitizerErrorExit),
          "--print-limit", "20", "--show-backtrace", "no", "--require-cuda-init", "no"};
}

namespace {

// The findings that decided, at most three, then how many more.
std::string findings_text(const SanitizerReport& report, const std::string& tool, bool cut) {
  std::vector<const SanitizerFinding*> errors;
  for (const auto& f : report.findings)
    if (f.error) errors.push_back(&f);
  if (errors.empty()) {
    return "compute-sanitizer " + tool + " found errors in this test's run on the GPU" +
           (cut ? " (its report was cut: the program wrote too much output before it)" : "") +
           "; run `compute-sanitizer --tool " + tool + "` on your program to see them";
  }
  std::string text;
  for (std::size_t i = 0; i < errors.size() && i < 3; ++i) text += (i ? "\n" : "") + errors[i]->message;
  if (errors.size() > 3) text += "\n(and " + std::to_string(errors.size() - 3) + " more)";
  return text;
}

}  // namespace

SanitizerVerdict check_under_sanitizer(TestResult& result, const TaskInvocation& inv, LabRunner& runner,
                                       const std::filesystem::path& sanitizer, const std::string& run_name) {
  for (const std::string& tool : sanitizer_tools()) {
    TaskInvocation checked = inv;
    checked.wrapper = sanitizer_command(sanitizer, tool);
    checked.params.set(parlab::harness::kUnderSanitizerParam, tool);
    checked.limits.wall_seconds *= kSanitizerSlowdown;
    checked.limits.cpu_seconds *= kSanitizerSlowdown;
    const TaskRun run = runner.run(checked, run_name + "-" + tool);
    if (run.ok()) continue;
    result.status = TestStatus::failed;
    result.points = 0;
    // The verdict is the tool's exit code; the text (from the program's own output
    // streams) only says what and where.
    if (run.run.outcome == RunOutcome::nonzero_exit && run.run.exit_code == kSanitizerErrorExit) {
      const SanitizerReport report = parse_sanitizer_report(run.run.stdout_text + "\n" + run.run.stderr_text);
      const std::string findings = findings_text(report, tool, run.run.stdout_truncated);
      result.message = "right results, but " + findings;
      if (tool != "racecheck") return {tool, std::nullopt};
      return {tool, SeenRaceReport{"compute-sanitizer racecheck", findings.substr(0, findings.find('\n')), findings}};
    }
    // The program passed without the tool: under it (slower, instrumented) it must too.
    result.message = "right results, but under compute-sanitizer " + tool + " (which checks what " +
                     "the simulator checks) the program did not finish cleanly: " + run.message;
    return {tool, std::nullopt};
  }
  return {};
}

}  // namespace parlab::grader
