#pragma once
// One student's state in a batch output folder. Finished students have status.json,
// written last and atomically after result.json and the reports, so kill -9 at any
// moment leaves a student either finished (all files whole) or not (graded again).
#include <optional>
#include <string>

#include "batch/batch_layout.hpp"
#include "batch/batch_manifest.hpp"
#include "batch/record_identity.hpp"
#include "result/result.hpp"

namespace parlab::grader::batch {

enum class StudentStatus {
  graded,        // built and tested (whatever the score)
  build_failed,  // the submission did not compile
  rejected,      // not a usable submission: bad archive, path escaping it, too big
  error,         // the grader failed (not the student): retried by the next run
  pending,       // not graded yet
  missing,       // on the roster, nothing submitted
};
const char* to_string(StudentStatus s);
StudentStatus student_status_from_string(const std::string& s);  // throws std::invalid_argument

struct StudentRecord {
  ManifestStudent student;
  StudentStatus status = StudentStatus::pending;
  std::string reason;                // for rejected and error rows
  double seconds = 0;                // wall time of this student's grading
  std::optional<GradeResult> result;  // graded, build_failed, rejected
  std::optional<RecordIdentity> identity;  // what was graded (absent in records of older graders)
  std::string regrade_token;       // the --regrade this record was graded under (regrade_marker.hpp)
  std::string regraded_because;    // why a re-run graded it again ("the submission changed")
  int attempts = 1;                // gradings this run needed (infrastructure retries)
  std::vector<std::string> retried_because;  // why each earlier attempt was not kept
  std::string requested_by;        // "--only": this grading was asked for by name
};

// Writes result.json, report.md, gradescope/results.json, then status.json.
void save_finished(const BatchLayout& layout, const StudentRecord& record);
// Records a grader-side failure (error.json) without touching a finished result.
void save_error(const BatchLayout& layout, const StudentRecord& record);
// Removes status.json first, so a regrade killed half way is graded again.
void mark_unfinished(const BatchLayout& layout, const std::string& id);

bool is_finished(const BatchLayout& layout, const std::string& id);

// Reads back what the folder holds: finished, error, or pending. A finished student
// whose files do not read back is reported as an error naming the file (and the next
// run grades it again).
StudentRecord load_record(const BatchLayout& layout, const ManifestStudent& student);

// The result of a submission that could not be graded at all (rejected archive): a
// full GradeResult with every test failed and the reason, so every report works.
GradeResult rejected_result(const LabSpec& lab, const std::string& submission, const std::string& reason);

// Removes what killed atomic writers left in `dir` (util/atomic_write.cpp names them
// ".NAME.tmp.PID.N"), recursively; returns how many. Only for folders no live writer uses.
int remove_stale_temp_files(const std::filesystem::path& dir);

}  // namespace parlab::grader::batch
