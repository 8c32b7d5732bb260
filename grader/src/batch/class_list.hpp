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
};

struct ClassList {
  std::vector<Student> students;           // sorted by id
  std::vector<RosterEntry> missing;        // on the roster, no submission found
  std::vector<std::string> not_on_roster;  // submissions the roster does not list
  std::vector<std::string> ignored;        // files in the class folder that are no submission
  bool gradescope_export = false;
};

// Throws UsageError when two submissions end up with the same id, or an id cannot be
// a folder name.
ClassList make_class_list(const ClassFolder& folder, const std::optional<std::vector<RosterEntry>>& roster);

// Letters, digits, '.', '_', '-', '@'; not starting with '.'. Returns why not, or "".
std::string student_id_problem(const std::string& id);

}  // namespace parlab::grader::batch
