#include "batch/run_facts.hpp"

#include <fstream>
#include <sstream>

#include "util/atomic_write.hpp"

namespace parlab::grader::batch {

nlohmann::json run_facts_json(const BatchRunFacts& f) {
  nlohmann::json retried = nlohmann::json::array();
  for (const RetriedGrading& r : f.retried) {
    retried.push_back({{"id", r.id}, {"attempts", r.attempts}, {"reasons", r.reasons}});
  }
  return {{"started_at", f.started_at},
          {"submissions", f.submissions},
          {"to_grade", f.to_grade},
          {"only", f.only},
          {"regraded_after_change", f.regraded_after_change},
          {"jobs", f.jobs},
          {"jobs_asked", f.jobs_asked},
          {"jobs_lowered_because", f.jobs_lowered_because},
          {"regrade", f.regrade},
          {"resumed_regrade", f.resumed_regrade},
          {"graded", f.graded},
          {"errors", f.errors},
          {"stopped", f.stopped},
          {"retried", std::move(retried)}};
}

std::filesystem::path last_run_file(const std::filesystem::path& out_dir) { return out_dir / "last-run.json"; }

void write_run_facts(const std::filesystem::path& out_dir, const BatchRunFacts& f) {
  write_file_atomically(last_run_file(out_dir), run_facts_json(f).dump(2) + "\n");
}

std::optional<nlohmann::json> read_run_facts(const std::filesystem::path& out_dir) {
  std::ifstream in(last_run_file(out_dir));
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (!j.is_object()) return std::nullopt;
  return j;
}

}  // namespace parlab::grader::batch
