// batch/run_facts: a batch run's own facts (how many to grade, jobs, regrade, retries)
// land in summary.json's last_run, kept by --collect.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "batch/batch_manifest.hpp"
#include "batch/collect.hpp"
#include "batch/run_facts.hpp"
#include "batch_test_support.hpp"
#include "util/atomic_write.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;

namespace {

BatchRunFacts lowered_regrade() {
  BatchRunFacts f;
  f.started_at = "2026-11-26T04:00:00Z";
  f.submissions = 6;
  f.to_grade = 4;
  f.regraded_after_change = 1;
  f.jobs = 5;
  f.jobs_asked = 8;
  f.jobs_lowered_because = "each grading leases 2 of the 10 sandbox uids (61300-61309; PARLAB_UID_POOL for more)";
  f.resumed_regrade = true;
  f.graded = 3;
  f.errors = 1;
  f.retried = {{"s2", 3, {"the sandbox could not start", "the sandbox could not start"}}};
  return f;
}

}  // namespace

TEST_CASE("a run's facts are written as JSON, every field", "[batch][run_facts]") {
  const nlohmann::json j = run_facts_json(lowered_regrade());
  CHECK(j.size() == 14);
  CHECK(j.at("to_grade") == 4);
  CHECK(j.at("jobs") == 5);
  CHECK(j.at("jobs_asked") == 8);
  CHECK(j.at("jobs_lowered_because").get<std::string>().find("10 sandbox uids") != std::string::npos);
  CHECK(j.at("regrade") == false);
  CHECK(j.at("resumed_regrade") == true);
  CHECK(j.at("only").is_array());
  CHECK(j.at("retried") == nlohmann::json::parse(R"([{"id": "s2", "attempts": 3,
      "reasons": ["the sandbox could not start", "the sandbox could not start"]}])"));
}

TEST_CASE("collect puts the last run's facts in summary.json, null before any run",
          "[batch][run_facts]") {
  ScratchDir s;
  BatchLayout layout{s.path()};
  BatchManifest m;
  m.lab_id = "lab01";
  m.lab_title = "Tiny";
  m.max_score = 10;
  m.tests = {{"serial", TestKind::correctness, 10}};
  m.students = {{"a", "", "a"}};
  write_file_atomically(layout.manifest(), manifest_json_text(m));

  collect_batch(layout);
  CHECK(nlohmann::json::parse(read_text(layout.summary_json())).at("last_run").is_null());

  write_run_facts(layout.out, lowered_regrade());
  collect_batch(layout);
  const nlohmann::json last = nlohmann::json::parse(read_text(layout.summary_json())).at("last_run");
  CHECK(last == run_facts_json(lowered_regrade()));

  // A damaged file is no run: null, never a failed collect.
  write_text(last_run_file(layout.out), "{ not json");
  collect_batch(layout);
  CHECK(nlohmann::json::parse(read_text(layout.summary_json())).at("last_run").is_null());
}
