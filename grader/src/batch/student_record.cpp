#include "batch/student_record.hpp"
#include "util/clock_text.hpp"
#include "batch/student_reports.hpp"

#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <regex>
#include <stdexcept>

#include <unistd.h>

#include "grading/host_info.hpp"
#include "result/result_json.hpp"
#include "spec/lab_spec.hpp"
#include "util/atomic_write.hpp"
#include "util/text_file.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace parlab::grader::batch {
namespace {

constexpr const char* kStatusNames[] = {"graded", "build_failed", "rejected", "error", "pending", "missing"};

std::string status_text(const StudentRecord& r) {
  json j = {{"id", r.student.id},     {"name", r.student.name},   {"entry", r.student.entry},
            {"status", to_string(r.status)}, {"reason", r.reason}, {"seconds", r.seconds},
            {"finished_at", now_iso8601()}, {"attempts", r.attempts}};
  if (r.identity) j["graded"] = identity_json(*r.identity);
  if (!r.regrade_token.empty()) j["regrade_token"] = r.regrade_token;
  if (!r.regraded_because.empty()) j["regraded_because"] = r.regraded_because;
  if (!r.retried_because.empty()) j["retried_because"] = r.retried_because;
  if (!r.requested_by.empty()) j["requested_by"] = r.requested_by;
  return j.dump(2) + "\n";
}

void read_status_extras(const json& s, StudentRecord& r) {
  if (s.contains("graded")) r.identity = identity_from_json(s.at("graded"));
  if (s.contains("regrade_token")) r.regrade_token = s.at("regrade_token").get<std::string>();
  if (s.contains("regraded_because")) r.regraded_because = s.at("regraded_because").get<std::string>();
  if (s.contains("attempts")) r.attempts = s.at("attempts").get<int>();
  if (s.contains("retried_because")) r.retried_because = s.at("retried_because").get<std::vector<std::string>>();
  if (s.contains("requested_by")) r.requested_by = s.at("requested_by").get<std::string>();
}

// ".NAME.tmp.PID.N" as util/atomic_write.cpp's temp_path_for makes them.
bool is_atomic_write_temp(const std::string& name) {
  static const std::regex pattern(R"(^\..+\.tmp\.[0-9]+\.[0-9]+$)");
  return std::regex_match(name, pattern);
}

}  // namespace

const char* to_string(StudentStatus s) { return kStatusNames[static_cast<int>(s)]; }

StudentStatus student_status_from_string(const std::string& s) {
  for (int i = 0; i < 6; ++i) {
    if (s == kStatusNames[i]) return static_cast<StudentStatus>(i);
  }
  throw std::invalid_argument("unknown student status '" + s + "'");
}

void mark_unfinished(const BatchLayout& layout, const std::string& id) {
  std::error_code ec;
  fs::remove(layout.status_file(id), ec);
}

void save_finished(const BatchLayout& layout, const StudentRecord& r) {
  const std::string& id = r.student.id;
  mark_unfinished(layout, id);
  write_file_atomically(layout.result_file(id), result_json_text(*r.result));
  // Plain until the collect that ends the run adds the late policy's outcome (--course).
  write_student_reports(layout, r, nullptr);
  write_file_atomically(layout.status_file(id), status_text(r));
  std::error_code ec;
  fs::remove(layout.error_file(id), ec);  // an earlier failure is history now
}

void save_error(const BatchLayout& layout, const StudentRecord& record) {
  StudentRecord r = record;
  r.status = StudentStatus::error;
  write_file_atomically(layout.error_file(r.student.id), status_text(r));
}

int remove_stale_temp_files(const fs::path& dir) {
  int removed = 0;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return 0;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::error_code e2;
    if (it->is_regular_file(e2) && is_atomic_write_temp(it->path().filename().string()) &&
        fs::remove(it->path(), e2)) {
      ++removed;
    }
  }
  return removed;
}

bool is_finished(const BatchLayout& layout, const std::string& id) {
  return fs::exists(layout.status_file(id));
}

StudentRecord load_record(const BatchLayout& layout, const ManifestStudent& student) {
  StudentRecord r;
  r.student = student;
  const std::string& id = student.id;
  try {
    if (is_finished(layout, id)) {
      json s = json::parse(read_text_file(layout.status_file(id)));
      r.status = student_status_from_string(s.at("status").get<std::string>());
      r.reason = s.at("reason").get<std::string>();
      r.seconds = s.at("seconds").get<double>();
      read_status_extras(s, r);
      r.result = grade_result_from_json_text(read_text_file(layout.result_file(id)));
      return r;
    }
    if (fs::exists(layout.error_file(id))) {
      json s = json::parse(read_text_file(layout.error_file(id)));
      r.status = StudentStatus::error;
      r.reason = s.at("reason").get<std::string>();
      r.seconds = s.at("seconds").get<double>();
      read_status_extras(s, r);
      return r;
    }
  } catch (const std::exception& e) {
    r = StudentRecord{};
    r.student = student;
    r.status = StudentStatus::error;
    r.reason = std::string("the saved result does not read back (graded again by the next run): ") + e.what();
    return r;
  }
  r.status = StudentStatus::pending;
  return r;
}

GradeResult rejected_result(const LabSpec& lab, const std::string& submission, const std::string& reason) {
  GradeResult g;
  g.grader_version = PARLAB_VERSION;
  g.lab_id = lab.id;
  g.lab_title = lab.title;
  g.submission = submission;
  g.started_at = now_iso8601();
  g.performance_enabled = false;
  g.max_score = lab.max_points();
  // Nothing ran, but every report states where the decision was made.
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  g.host.hostname = host;
  g.host.cores = available_cores();
  g.host.sandbox = "not used (nothing of the submission ran)";
  g.build.ok = false;
  g.build.log = "submission rejected: " + reason;
  for (const TestSpec& t : lab.tests) {
    TestResult tr;
    tr.name = t.name;
    tr.kind = t.kind;
    tr.visibility = t.visibility;
    tr.max_points = t.points;
    tr.status = TestStatus::failed;
    tr.outcome = RunOutcome::not_run;
    tr.message = "not run: the submission was rejected: " + reason;
    g.tests.push_back(tr);
  }
  g.notes.push_back("submission rejected by grade batch: " + reason);
  return g;
}

}  // namespace parlab::grader::batch
