#pragma once
// What the last grading run of a batch did (docs/batch.md, "The last run"): how many it
// had to grade, with how many jobs (and why fewer than asked), whether it started or
// resumed a --regrade, and whose gradings the grader retried. Written by the run to
// OUT/last-run.json; collect_batch copies it into summary.json's `last_run`, so
// `--collect` keeps it. The facts of stderr's progress lines, for tools and tests.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parlab::grader::batch {

struct RetriedGrading {
  std::string id;
  int attempts = 0;
  std::vector<std::string> reasons;  // why each earlier attempt was repeated
};

struct BatchRunFacts {
  std::string started_at;           // ISO 8601 UTC
  int submissions = 0;              // in the class folder
  int to_grade = 0;                 // chosen by this run (the "N to grade" line)
  std::vector<std::string> only;    // --only ids (empty: everyone due)
  int regraded_after_change = 0;    // of to_grade: finished records that were stale
  int jobs = 1;                     // jobs used
  int jobs_asked = 1;               // --jobs (or the cores), before any cap
  std::string jobs_lowered_because; // empty when jobs == jobs_asked
  bool regrade = false;             // --regrade given: this run started one
  bool resumed_regrade = false;     // continued a --regrade an earlier run started
  int graded = 0;                   // of to_grade: finished with a record
  int errors = 0;                   // of to_grade: grader-side failures (retried next run)
  bool stopped = false;             // stopped early: the machine, not a submission
  std::vector<RetriedGrading> retried;  // gradings that took more than one attempt
};

nlohmann::json run_facts_json(const BatchRunFacts& f);

// OUT/last-run.json.
std::filesystem::path last_run_file(const std::filesystem::path& out_dir);
void write_run_facts(const std::filesystem::path& out_dir, const BatchRunFacts& f);
// The last run's facts as written, or nothing (no run yet, or unreadable: a batch
// folder from before the file existed).
std::optional<nlohmann::json> read_run_facts(const std::filesystem::path& out_dir);

}  // namespace parlab::grader::batch
