#include "batch/batch_manifest.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "batch/submission_time.hpp"
#include "core/errors.hpp"

using nlohmann::json;

namespace parlab::grader::batch {
namespace {

constexpr const char* kFormat = "parlab-batch";
constexpr int kVersion = 1;

json students_json(const std::vector<ManifestStudent>& v) {
  json a = json::array();
  for (const auto& s : v) {
    json j = {{"id", s.id}, {"name", s.name}, {"entry", s.entry}};
    if (!s.group_of.empty()) j["group_of"] = s.group_of;
    if (!s.section.empty()) j["section"] = s.section;
    if (s.submitted_at) j["submitted_at"] = *s.submitted_at;
    if (!s.submitted_from.empty()) j["submitted_from"] = s.submitted_from;
    a.push_back(j);
  }
  return a;
}

std::vector<ManifestStudent> students_from(const json& a) {
  std::vector<ManifestStudent> v;
  for (const json& s : a) {
    ManifestStudent m{s.at("id").get<std::string>(), s.at("name").get<std::string>(),
                      s.at("entry").get<std::string>(), s.value("group_of", std::string())};
    m.section = s.value("section", std::string());
    if (s.contains("submitted_at")) m.submitted_at = s.at("submitted_at").get<std::int64_t>();
    m.submitted_from = s.value("submitted_from", std::string());
    v.push_back(m);
  }
  return v;
}

}  // namespace

BatchManifest make_manifest(const LabSpec& lab, const ClassList& list,
                            const std::filesystem::path& input_dir, bool performance) {
  BatchManifest m;
  m.lab_id = lab.id;
  m.lab_title = lab.title;
  m.max_score = lab.max_points();
  for (const TestSpec& t : lab.tests) m.tests.push_back({t.name, t.kind, t.points});
  m.input_dir = input_dir.string();
  m.performance = performance;
  m.gradescope_export = list.gradescope_export;
  for (const Student& s : list.students) {
    ManifestStudent ms{s.id, s.name, s.source.entry};
    const SubmissionTime t = submission_time(s);
    ms.section = s.section;
    ms.submitted_at = t.at;
    ms.submitted_from = t.source;
    m.students.push_back(ms);
  }
  for (const RosterEntry& r : list.missing) m.missing.push_back({r.id, r.name, ""});
  for (const GroupMember& g : list.group_members) {
    ManifestStudent member{g.id, g.name, "", g.submitter_id};
    for (const ManifestStudent& s : m.students) {
      if (s.id != g.submitter_id) continue;
      member.entry = s.entry;  // the group's submission: its section and time too
      member.section = s.section;
      member.submitted_at = s.submitted_at;
      member.submitted_from = s.submitted_from;
    }
    m.group_members.push_back(member);
  }
  m.not_on_roster = list.not_on_roster;
  m.ignored = list.ignored;
  return m;
}

std::string manifest_json_text(const BatchManifest& m) {
  json tests = json::array();
  for (const auto& t : m.tests) tests.push_back({{"name", t.name}, {"kind", to_string(t.kind)}, {"points", t.points}});
  json j = {{"format", kFormat},
            {"version", kVersion},
            {"lab_id", m.lab_id},
            {"lab_title", m.lab_title},
            {"max_score", m.max_score},
            {"tests", tests},
            {"input_dir", m.input_dir},
            {"performance", m.performance},
            {"gradescope_export", m.gradescope_export},
            {"students", students_json(m.students)},
            {"missing", students_json(m.missing)},
            {"group_members", students_json(m.group_members)},
            {"not_on_roster", m.not_on_roster},
            {"ignored", m.ignored}};
  return j.dump(2) + "\n";
}

BatchManifest read_manifest(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw UsageError(file.parent_path().string() + " is not a grade batch output folder (no " +
                     file.filename().string() + "; start one with grade batch LAB CLASS_DIR --out DIR)");
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    json j = json::parse(text.str());
    if (j.at("format") != kFormat || j.at("version") != kVersion) {
      throw UsageError(file.string() + ": not a version " + std::to_string(kVersion) + " batch manifest");
    }
    BatchManifest m;
    m.lab_id = j.at("lab_id").get<std::string>();
    m.lab_title = j.at("lab_title").get<std::string>();
    m.max_score = j.at("max_score").get<double>();
    for (const json& t : j.at("tests")) {
      m.tests.push_back({t.at("name").get<std::string>(), test_kind_from_string(t.at("kind").get<std::string>()),
                         t.at("points").get<double>()});
    }
    m.input_dir = j.at("input_dir").get<std::string>();
    m.performance = j.at("performance").get<bool>();
    m.gradescope_export = j.at("gradescope_export").get<bool>();
    m.students = students_from(j.at("students"));
    m.missing = students_from(j.at("missing"));
    if (j.contains("group_members")) m.group_members = students_from(j.at("group_members"));
    m.not_on_roster = j.at("not_on_roster").get<std::vector<std::string>>();
    m.ignored = j.at("ignored").get<std::vector<std::string>>();
    return m;
  } catch (const json::exception& e) {
    throw UsageError(file.string() + ": malformed batch manifest: " + e.what());
  } catch (const std::invalid_argument& e) {  // an unknown word (test kind)
    throw UsageError(file.string() + ": malformed batch manifest: " + e.what());
  }
}

}  // namespace parlab::grader::batch
