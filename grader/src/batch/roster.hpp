#pragma once
// The optional roster: a CSV mapping each submission folder (or archive name) to a
// student id and name. Header row required; columns `folder` and `id`, optional
// `name` and `members`, others ignored. Students on the roster without a submission are reported.
#include <filesystem>
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
};

// Throws UsageError "roster.csv:LINE: ..." for a missing column, an empty folder or
// id, or a folder or id listed twice.
std::vector<RosterEntry> load_roster(const std::filesystem::path& csv);

}  // namespace parlab::grader::batch
