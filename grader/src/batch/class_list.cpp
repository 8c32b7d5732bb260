#include "batch/class_list.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include "core/errors.hpp"
#include "report/untrusted_text.hpp"

namespace parlab::grader::batch {

namespace {

// The code point of the UTF-8 sequence at `at` and its length, or length 0 when the
// bytes there are not valid UTF-8 (overlong forms, surrogates and stray bytes included).
std::pair<char32_t, std::size_t> decode_utf8(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0;
  if (lead >= 0xF5) length = 0;
  if (length == 0 || at + length > text.size()) return {0, 0};
  char32_t cp = lead & (0x7F >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (byte(at + i) & 0x3F);
  }
  const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < smallest[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
  return {cp, length};
}

// Non-ASCII characters an id may not hold: controls, spaces, and the invisible ones
// that make two ids look alike or reorder text (zero-width, bidi controls, BOM).
bool invisible_or_space(char32_t cp) {
  return cp <= 0xA0 || cp == 0xAD || cp == 0x034F || cp == 0x061C || cp == 0x1680 ||
         (cp >= 0x180B && cp <= 0x180E) || (cp >= 0x2000 && cp <= 0x200F) ||
         (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 ||
         (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF || (cp >= 0xFFF0 && cp <= 0xFFFF) ||
         (cp >= 0xE0000 && cp <= 0xE0FFF);
}

}  // namespace

std::string student_id_problem(const std::string& id) {
  if (id.empty()) return "it is empty";
  if (id.size() > 100) return "it is longer than 100 bytes";
  if (id[0] == '.') return "it starts with '.'";
  const std::string allowed = " (ids may hold letters, accented ones too, digits, '.', '_', '-', '@')";
  for (std::size_t i = 0; i < id.size();) {
    const auto c = static_cast<unsigned char>(id[i]);
    if (c < 0x80) {
      if (!std::isalnum(c) && c != '.' && c != '_' && c != '-' && c != '@') {
        if (std::isprint(c)) return "it holds '" + std::string(1, static_cast<char>(c)) + "'" + allowed;
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", c);
        return std::string("it holds the control character ") + hex + allowed;
      }
      ++i;
      continue;
    }
    // Whole characters only: a message never splits one.
    const auto [cp, length] = decode_utf8(id, i);
    if (length == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      return std::string("it is not valid UTF-8 (byte ") + hex + ")";
    }
    if (invisible_or_space(cp)) {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(cp));
      return std::string("it holds the invisible or space character ") + code + allowed;
    }
    i += length;
  }
  return "";
}

namespace {

// Who has which id so far, and which roster rows matched: each student is graded once.
struct Claims {
  std::map<std::string, std::string> taken;  // id -> entry that has it
  std::map<std::string, bool> used;          // roster folder -> matched
  std::map<std::string, bool> is_member;     // id -> in a group
};

// The submission's student: its roster row, if the roster names its entry.
Student student_of(const SubmissionSource& s, const std::map<std::string, const RosterEntry*>& by_folder,
                   Claims& claims, const RosterEntry*& r) {
  Student st;
  st.source = s;
  st.id = s.stem;
  // The roster may name the entry exactly ("alice.zip") or without extension ("alice").
  r = nullptr;
  for (const std::string& key : {s.entry, s.stem}) {
    if (auto it = by_folder.find(key); !r && it != by_folder.end()) {
      r = it->second;
      claims.used[key] = true;
    }
  }
  if (r) {
    st.id = r->id;
    st.name = r->name;
    st.members = r->members;
    st.section = r->section;
    st.submitted_at = r->submitted_at;
    st.roster_row = r->folder + "," + r->id + "," + r->name;
    for (const std::string& m : r->members) st.roster_row += (m == r->members.front() ? "," : ";") + m;
  }
  return st;
}

void add_submissions(const ClassFolder& folder, const std::optional<std::vector<RosterEntry>>& roster,
                     Claims& claims, ClassList& out) {
  std::map<std::string, const RosterEntry*> by_folder;
  if (roster) {
    for (const RosterEntry& e : *roster) by_folder[e.folder] = &e;
  }
  for (const SubmissionSource& s : folder.sources) {
    const RosterEntry* r = nullptr;
    Student st = student_of(s, by_folder, claims, r);
    if (!r && roster) out.not_on_roster.push_back(s.entry);
    if (std::string why = student_id_problem(st.id); !why.empty()) {
      throw UsageError("student id '" + untrusted_text::escape_line(st.id) + "' (for '" +
                       untrusted_text::escape_line(s.entry) + "') cannot be used: " + why +
                       (r ? "" : "; give the submission an id with a roster (--roster)"));
    }
    auto [it, fresh] = claims.taken.emplace(st.id, s.entry);
    if (!fresh) {
      throw UsageError("'" + it->second + "' and '" + s.entry + "' both have the student id '" +
                       st.id + "'; each student needs one submission (fix the folder or the roster)");
    }
    out.students.push_back(std::move(st));
  }
}

// Group members: their rows copy the submitter's grade; a member's own roster row
// (for the name) is then not "missing".
void add_group_members(const std::optional<std::vector<RosterEntry>>& roster, Claims& claims,
                       ClassList& out) {
  std::map<std::string, std::string> member_names;
  if (roster) {
    for (const RosterEntry& e : *roster) member_names[e.id] = e.name;
  }
  for (const Student& st : out.students) {
    for (const std::string& m : st.members) {
      if (std::string why = student_id_problem(m); !why.empty()) {
        throw UsageError("group member id '" + m + "' (of " + st.id + ") cannot be used: " + why);
      }
      auto [it, fresh] = claims.taken.emplace(m, "the group of " + st.id);
      if (!fresh) {
        throw UsageError("'" + m + "' is a member of the group of " + st.id + " and also has the row of '" +
                         it->second + "'; a student is graded once (fix the roster)");
      }
      claims.is_member[m] = true;
      out.group_members.push_back({m, member_names.count(m) ? member_names[m] : "", st.id});
    }
  }
  std::sort(out.group_members.begin(), out.group_members.end(),
            [](const GroupMember& a, const GroupMember& b) { return a.id < b.id; });
}

void add_missing(const std::vector<RosterEntry>& roster, const Claims& claims, ClassList& out) {
  for (const RosterEntry& e : roster) {
    if (claims.used.count(e.folder) || claims.is_member.count(e.id)) continue;
    // Missing students get a row (and maybe a folder later): the same rules apply,
    // and their id must not be one a submission already has.
    if (std::string why = student_id_problem(e.id); !why.empty()) {
      throw UsageError("roster line " + std::to_string(e.line) + ": student id '" + e.id +
                       "' cannot be used: " + why);
    }
    if (auto it = claims.taken.find(e.id); it != claims.taken.end()) {
      throw UsageError("roster line " + std::to_string(e.line) + ": student id '" + e.id +
                       "' (folder '" + e.folder + "', not in the class folder) is also the id of the submission '" +
                       it->second + "'; one id would have two rows (fix the roster or rename the folder)");
    }
    out.missing.push_back(e);
  }
}

}  // namespace

ClassList make_class_list(const ClassFolder& folder,
                          const std::optional<std::vector<RosterEntry>>& roster) {
  ClassList out;
  out.ignored = folder.ignored;
  out.gradescope_export = folder.gradescope_export;
  Claims claims;
  add_submissions(folder, roster, claims, out);
  add_group_members(roster, claims, out);
  if (roster) add_missing(*roster, claims, out);
  std::sort(out.students.begin(), out.students.end(),
            [](const Student& a, const Student& b) { return a.id < b.id; });
  return out;
}

}  // namespace parlab::grader::batch
