// Read with fast-cpp-csv-parser (libfccp): quoting and trimming are its job.
#include "batch/roster.hpp"

#include <libfccp/csv.h>

#include <regex>
#include <set>
#include <sstream>

#include "batch/course_deadlines.hpp"
#include "core/errors.hpp"

namespace parlab::grader::batch {

std::vector<RosterEntry> load_roster(const std::filesystem::path& csv) {
  const std::string file = csv.string();
  std::vector<RosterEntry> out;
  try {
    io::CSVReader<6, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>> in(file);
    in.read_header(io::ignore_extra_column | io::ignore_missing_column, "folder", "id", "name", "members", "section",
                   "submitted_at");
    if (!in.has_column("folder") || !in.has_column("id")) {
      throw UsageError(file + ":1: the roster needs a header row with columns 'folder' and 'id' "
                       "(and optionally 'name')");
    }
    std::set<std::string> folders, ids;
    RosterEntry e;
    std::string members, submitted_at;
    const bool has_time = in.has_column("submitted_at");
    while (in.read_row(e.folder, e.id, e.name, members, e.section, submitted_at)) {
      e.line = in.get_file_line();
      std::istringstream list(std::regex_replace(members, std::regex(";"), " "));
      for (std::string m; list >> m;) e.members.push_back(m);
      members.clear();
      const std::string where = file + ":" + std::to_string(e.line) + ": ";
      if (e.folder.empty()) throw UsageError(where + "empty 'folder'");
      if (e.id.empty()) throw UsageError(where + "empty 'id' for folder '" + e.folder + "'");
      if (!folders.insert(e.folder).second) throw UsageError(where + "folder '" + e.folder + "' listed twice");
      if (!ids.insert(e.id).second) throw UsageError(where + "id '" + e.id + "' listed twice");
      if (has_time) e.submitted_at = submitted_at;
      if (!submitted_at.empty() && !parse_timestamp(submitted_at)) {
        throw UsageError(where + "submitted_at '" + submitted_at +
                         "' is no RFC 3339 time with a UTC offset (2026-03-01T23:59:00-05:00 or ...Z)");
      }
      submitted_at.clear();
      out.push_back(e);
      e = RosterEntry{};
    }
  } catch (const io::error::base& err) {
    throw UsageError("roster " + file + ": " + err.what());
  }
  return out;
}

}  // namespace parlab::grader::batch
