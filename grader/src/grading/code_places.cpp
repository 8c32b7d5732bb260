#include "grading/code_places.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

std::optional<std::string> code_places_of(ProcessRunner& runner, const fs::path& tool,
                                          const fs::path& program, const fs::path& work_dir) {
  RunRequest req;
  req.executable = tool;
  req.args = {program.string()};
  req.work_dir = work_dir;
  req.env = {{"PATH", "/usr/bin:/bin"}, {"LANG", "C"}, {"LC_ALL", "C"}};
  req.limits.wall_seconds = 30;
  req.limits.cpu_seconds = 30;
  req.limits.output_bytes = kMaxCodePlacesBytes + 1;
  req.view.read_only = {tool.parent_path(), program.parent_path()};
  req.view.read_write = {work_dir};
  std::error_code ec;
  fs::remove_all(work_dir, ec);
  fs::create_directories(work_dir);
  const RunResult run = runner.run(req);
  fs::remove_all(work_dir, ec);
  if (run.outcome != RunOutcome::ok || run.stdout_text.size() > kMaxCodePlacesBytes ||
      run.stdout_text.find('\n') != std::string::npos) {
    return std::nullopt;
  }
  return run.stdout_text;
}

}  // namespace parlab::grader
