#pragma once
// The optional roster: a CSV mapping each submission folder (or archive name) to a
// student id and name. Header row required; columns `folder` and `id`, optional
// `name`, `members`, `section` and `submitted_at` (an LMS export's submission time,
// RFC 3339 with its UTC offset: the late policy reads it), others ignored. Students on the roster without a submission are reported.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace parlab::grader::batch {

struct RosterEntry {
  std::string folder;  // "alice", "alice.zip" or "submission_123"
  std::string id;
  std::string name;
  unsigned line = 0;   // for messages
  // A group submission: the other members' ids (column `members`, separated by ';' or
  // spaces). Each gets a gradebook row with the group's grade.
  std::vector<std::string> members;
  std::string section;  // column `section`: whose due time applies (course file)
  // Column `submitted_at`: nothing when the roster has no such column; "" when the
  // column is there but the cell is empty (the LMS does not know: reported as unknown).
  std::optional<std::string> submitted_at;
};

// Throws UsageError "roster.csv:LINE: ..." for a missing column, an empty folder or
// id, a folder or id listed twice, or a `submitted_at` that is no RFC 3339 time with offset.
std::vector<RosterEntry> load_roster(const std::filesystem::path& csv);

}  // namespace parlab::grader::batch
