#include "compile/compiled_views_memo.hpp"

#include <exception>

namespace fs = std::filesystem;

namespace parlab::grader {

CompiledViewsMemo::CompiledViewsMemo(fs::path folder, const CompilePlan& plan, const fs::path& stage,
                                     const std::vector<std::string>& staged,
                                     const std::vector<fs::path>& include_dirs,
                                     const std::vector<fs::path>& simulator_dirs)
    : memo_(std::move(folder)) {
  std::map<std::string, std::vector<CompileStep>> steps_of;
  for (const CompileStep& step : plan.steps) {
    if (!step.views_of.empty()) steps_of[step.views_of].push_back(step);
  }
  for (const auto& [source, steps] : steps_of) {
    try {
      keys_[source] = compiled_views_key(steps, stage, staged, include_dirs, simulator_dirs);
    } catch (const std::exception&) {
      // Unreadable input: no key, so the views are made and compared as without a memo.
    }
  }
}

bool CompiledViewsMemo::agreed_before(const std::string& source) const {
  const auto it = keys_.find(source);
  return it != keys_.end() && memo_.passed_before(it->second);
}

void CompiledViewsMemo::remember_agreed(const std::string& source) const {
  const auto it = keys_.find(source);
  if (it != keys_.end()) memo_.remember_passed(it->second);
}

}  // namespace parlab::grader
