#include "batch/batch_options.hpp"

#include <algorithm>

namespace parlab::grader::batch {

std::vector<std::string> child_grade_args(const BatchOptions& o, const std::filesystem::path& submission,
                                          const std::filesystem::path& json) {
  std::vector<std::string> a = {o.lab_id};
  if (submission.empty()) {
    a.push_back("--reference");
  } else {
    a.push_back(submission.string());
  }
  a.insert(a.end(), {"--work-dir", o.work_root.string(), "--json", json.string(), "--color", "never"});
  a.insert(a.end(), {"--sandbox", o.sandbox_level});
  if (!o.performance) a.push_back("--no-perf");
  if (o.wall_limit) a.insert(a.end(), {"--wall-limit", std::to_string(*o.wall_limit)});
  if (o.seed) a.insert(a.end(), {"--seed", std::to_string(*o.seed)});
  if (o.toolchain) a.insert(a.end(), {"--toolchain", o.toolchain->string()});
  return a;
}

double grading_time_cap(const LabSpec& lab, const BatchOptions& o) {
  if (o.student_timeout_s > 0) return o.student_timeout_s;
  double s = 300;  // build, dataset generation, a slow file system
  double measuring = 0;
  for (const TestSpec& t : lab.tests) {
    double wall = o.wall_limit ? std::min(t.limits.wall_seconds, *o.wall_limit) : t.limits.wall_seconds;
    if (t.kind == TestKind::performance) {
      if (!o.performance) continue;
      const double m = t.performance->budget_seconds + 10 * wall;
      measuring += m;
      s += m;
    } else {
      s += 5 * wall;
    }
  }
  // Other workers' measurements run one at a time and this grading may wait for them.
  return s + measuring * std::max(0, o.jobs - 1);
}

}  // namespace parlab::grader::batch
