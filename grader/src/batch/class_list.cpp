#include "batch/class_list.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/errors.hpp"

namespace parlab::grader::batch {

std::string student_id_problem(const std::string& id) {
  if (id.empty()) return "it is empty";
  if (id.size() > 100) return "it is longer than 100 characters";
  if (id[0] == '.') return "it starts with '.'";
  for (unsigned char c : id) {
    if (!std::isalnum(c) && c != '.' && c != '_' && c != '-' && c != '@') {
      return "it holds '" + std::string(1, static_cast<char>(c)) +
             "' (ids may hold letters, digits, '.', '_', '-', '@')";
    }
  }
  return "";
}

ClassList make_class_list(const ClassFolder& folder,
                          const std::optional<std::vector<RosterEntry>>& roster) {
  ClassList out;
  out.ignored = folder.ignored;
  out.gradescope_export = folder.gradescope_export;
  std::map<std::string, const RosterEntry*> by_folder;
  if (roster) {
    for (const RosterEntry& e : *roster) by_folder[e.folder] = &e;
  }
  std::map<std::string, std::string> taken;  // id -> entry that has it
  std::map<std::string, bool> used;          // roster folder -> matched
  for (const SubmissionSource& s : folder.sources) {
    Student st;
    st.source = s;
    st.id = s.stem;
    // The roster may name the entry exactly ("alice.zip") or without extension ("alice").
    const RosterEntry* r = nullptr;
    for (const std::string& key : {s.entry, s.stem}) {
      if (auto it = by_folder.find(key); !r && it != by_folder.end()) {
        r = it->second;
        used[key] = true;
      }
    }
    if (r) {
      st.id = r->id;
      st.name = r->name;
      st.members = r->members;
      st.roster_row = r->folder + "," + r->id + "," + r->name;
      for (const std::string& m : r->members) st.roster_row += (m == r->members.front() ? "," : ";") + m;
    } else if (roster) {
      out.not_on_roster.push_back(s.entry);
    }
    if (std::string why = student_id_problem(st.id); !why.empty()) {
      throw UsageError("student id '" + st.id + "' (for '" + s.entry + "') cannot be used: " + why +
                       (r ? "" : "; give the submission an id with a roster (--roster)"));
    }
    auto [it, fresh] = taken.emplace(st.id, s.entry);
    if (!fresh) {
      throw UsageError("'" + it->second + "' and '" + s.entry + "' both have the student id '" +
                       st.id + "'; each student needs one submission (fix the folder or the roster)");
    }
    out.students.push_back(std::move(st));
  }
  // Group members: their rows copy the submitter's grade; a member's own roster row
  // (for the name) is then not "missing".
  std::map<std::string, std::string> member_names;
  if (roster) {
    for (const RosterEntry& e : *roster) member_names[e.id] = e.name;
  }
  std::map<std::string, bool> is_member;
  for (const Student& st : out.students) {
    for (const std::string& m : st.members) {
      if (std::string why = student_id_problem(m); !why.empty()) {
        throw UsageError("group member id '" + m + "' (of " + st.id + ") cannot be used: " + why);
      }
      auto [it, fresh] = taken.emplace(m, "the group of " + st.id);
      if (!fresh) {
        throw UsageError("'" + m + "' is a member of the group of " + st.id + " and also has the row of '" +
                         it->second + "'; a student is graded once (fix the roster)");
      }
      is_member[m] = true;
      out.group_members.push_back({m, member_names.count(m) ? member_names[m] : "", st.id});
    }
  }
  std::sort(out.group_members.begin(), out.group_members.end(),
            [](const GroupMember& a, const GroupMember& b) { return a.id < b.id; });
  if (roster) {
    for (const RosterEntry& e : *roster) {
      if (used.count(e.folder) || is_member.count(e.id)) continue;
      // Missing students get a row (and maybe a folder later): the same rules apply,
      // and their id must not be one a submission already has.
      if (std::string why = student_id_problem(e.id); !why.empty()) {
        throw UsageError("roster line " + std::to_string(e.line) + ": student id '" + e.id +
                         "' cannot be used: " + why);
      }
      if (auto it = taken.find(e.id); it != taken.end()) {
        throw UsageError("roster line " + std::to_string(e.line) + ": student id '" + e.id +
                         "' (folder '" + e.folder + "', not in the class folder) is also the id of the submission '" +
                         it->second + "'; one id would have two rows (fix the roster or rename the folder)");
      }
      out.missing.push_back(e);
    }
  }
  std::sort(out.students.begin(), out.students.end(),
            [](const Student& a, const Student& b) { return a.id < b.id; });
  return out;
}

}  // namespace parlab::grader::batch
