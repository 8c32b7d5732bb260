#pragma once
// Who is graded: the class folder's submissions, named through the roster when there
// is one. Ids become folder names in the output, so they are checked here, once.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/roster.hpp"
#include "batch/submission_discovery.hpp"

namespace parlab::grader::batch {

struct Student {
  std::string id;     // unique; safe as a file name
  std::string name;   // from the roster; may be empty
  SubmissionSource source;
  std::vector<std::string> members;  // a group submission's other members (roster `members`)
  std::string roster_row;      // the roster row that named it ("" without one), part of its identity
  std::string regrade_reason;  // set by select_students when a finished record is stale
  std::string section;                      // roster `section` (course file due times)
  std::optional<std::string> submitted_at;  // roster `submitted_at` (see RosterEntry)
  std::string requested_by;    // "--only": graded because the instructor named it
};

// A member of a group submission: graded with the submitter's entry, one row each.
struct GroupMember {
  std::string id;
  std::string name;          // from the member's own roster row, if any
  std::string submitter_id;  // the student whose entry the group submitted
};

struct ClassList {
  std::vector<Student> students;           // sorted by id
  std::vector<RosterEntry> missing;        // on the roster, no submission found
  std::vector<GroupMember> group_members;  // sorted by id
  std::vector<std::string> not_on_roster;  // submissions the roster does not list
  std::vector<std::string> ignored;        // files in the class folder that are no submission
  bool gradescope_export = false;
};

// Throws UsageError when two rows would have the same id (two submissions, a missing
// roster student and a submission, a group member who also submitted), or an id cannot
// be a folder name.
ClassList make_class_list(const ClassFolder& folder, const std::optional<std::vector<RosterEntry>>& roster);

// Letters, digits, '.', '_', '-', '@'; not starting with '.'. Returns why not, or "".
std::string student_id_problem(const std::string& id);

}  // namespace parlab::grader::batch
