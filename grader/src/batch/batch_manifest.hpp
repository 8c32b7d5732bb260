#pragma once
// OUT/batch.json: what a batch is about (lab, tests, who is in the class), written
// when the batch starts. `grade batch --collect` and Slurm tasks read it, so the
// gradebook has every column and every row even before anyone is graded.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/class_list.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader::batch {

struct ManifestStudent {
  std::string id;
  std::string name;
  std::string entry;  // folder or archive name in the class folder; empty when missing
  std::string group_of;  // group members only: the id whose grading is theirs too
  // For the late policy (batch/submission_time.hpp); a group member has the group's.
  std::string section;
  std::optional<std::int64_t> submitted_at;
  std::string submitted_from;  // where the time came from, or why it is unknown
};

struct ManifestTest {
  std::string name;
  TestKind kind = TestKind::correctness;
  double points = 0;
};

struct BatchManifest {
  std::string lab_id;
  std::string lab_title;
  double max_score = 0;
  std::vector<ManifestTest> tests;
  std::string input_dir;
  bool performance = true;
  bool gradescope_export = false;
  std::vector<ManifestStudent> students;  // sorted by id
  std::vector<ManifestStudent> missing;   // on the roster, nothing submitted
  std::vector<ManifestStudent> group_members;  // rows copying a group submission's grade
  std::vector<std::string> not_on_roster;
  std::vector<std::string> ignored;
};

BatchManifest make_manifest(const LabSpec& lab, const ClassList& list,
                            const std::filesystem::path& input_dir, bool performance);

std::string manifest_json_text(const BatchManifest& manifest);

// Throws UsageError when the file is missing ("not a grade batch output folder") or
// malformed (naming the field).
BatchManifest read_manifest(const std::filesystem::path& file);

}  // namespace parlab::grader::batch
