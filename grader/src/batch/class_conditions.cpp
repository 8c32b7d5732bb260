#include "batch/class_conditions.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "report/report_text.hpp"
#include "report/untrusted_text.hpp"

using nlohmann::json;

namespace parlab::grader::batch {
namespace {

std::string where_of(const GradeResult& g) {
  if (g.device.mode == DeviceMode::host) {
    return "this machine's CPU" + (g.host.cpu_model.empty() ? "" : " (" + g.host.cpu_model + ")");
  }
  return report_text::device_line(g.device);
}

struct LeftOut {
  double points = 0;
  int students = 0;
  std::string reason;  // the first student's: the machine's reason is the same for all
};

// "'a', 'b' and 3 more": the first two names, and how many others.
std::string first_two(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < 2; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > 2) list += " and " + std::to_string(names.size() - 2) + " more";
  return list;
}

}  // namespace

json graded_where(const std::vector<StudentRecord>& records) {
  std::set<std::string> devices, modes;
  std::vector<std::string> order;  // the lab's test order, as first seen
  std::map<std::string, LeftOut> left_out;
  for (const StudentRecord& r : records) {
    if (!r.result) continue;
    const GradeResult& g = *r.result;
    devices.insert(where_of(g));
    modes.insert(to_string(g.device.mode));
    for (const TestResult& t : g.tests) {
      if (t.status != TestStatus::not_graded) continue;
      auto [it, fresh] = left_out.try_emplace(t.name);
      if (fresh) {
        order.push_back(t.name);
        it->second.points = t.max_points;
        it->second.reason = report_text::not_graded_reason(g, t);
      }
      ++it->second.students;
    }
  }
  json tests = json::array();
  for (const std::string& name : order) {
    const LeftOut& l = left_out[name];
    tests.push_back({{"name", name}, {"points", l.points}, {"students", l.students}, {"reason", l.reason}});
  }
  return {{"devices", devices}, {"modes", modes}, {"not_graded_tests", tests}};
}

json run_problems(const std::vector<StudentRecord>& records) {
  json out = json::array();
  for (const StudentRecord& r : records) {
    if (!r.result) continue;
    // One clause per way of ending: "crashed (killed by a signal) in 'a', 'b' and 3 more".
    std::vector<RunOutcome> order;
    std::map<RunOutcome, std::vector<std::string>> tests;
    for (const TestResult& t : r.result->tests) {
      if (t.outcome == RunOutcome::ok || t.outcome == RunOutcome::not_run) continue;
      if (tests[t.outcome].empty()) order.push_back(t.outcome);
      tests[t.outcome].push_back("'" + untrusted_text::escape_line(t.name) + "'");
    }
    std::string reason;
    for (RunOutcome o : order) {
      reason += (reason.empty() ? "" : "; ") + report_text::describe_outcome(o) + " in " + first_two(tests[o]);
    }
    if (!reason.empty()) out.push_back({{"id", r.student.id}, {"name", r.student.name}, {"reason", reason}});
  }
  return out;
}

json needs_gpu_grading(const std::vector<StudentRecord>& records) {
  json out = json::array();
  for (const StudentRecord& r : records) {
    if (!r.result) continue;
    std::vector<std::string> names;
    double points = 0;
    std::string why;  // the first test's: the feature and where it is
    for (const TestResult& t : r.result->tests) {
      if (!report_text::stopped_at_unsupported_feature(t)) continue;
      names.push_back("'" + untrusted_text::escape_line(t.name) + "'");
      points += t.max_points;
      if (why.empty()) why = report_text::not_graded_reason(*r.result, t);
    }
    if (names.empty()) continue;
    out.push_back({{"id", r.student.id},
                   {"name", r.student.name},
                   {"points", points},
                   {"reason", first_two(names) + " (" + report_text::format_points(points) + " points): " + why}});
  }
  return out;
}

std::string graded_where_markdown(const json& where) {
  std::string devices;
  for (const json& d : where["devices"]) devices += (devices.empty() ? "" : "; ") + d.get<std::string>();
  std::string md = "Graded on: " + (devices.empty() ? std::string("nothing graded yet") : devices) + ".\n";
  if (where["not_graded_tests"].empty()) return md + "\n";
  md += "\nNot graded there (left out of every total, not counted as failures):\n\n";
  for (const json& t : where["not_graded_tests"]) {
    md += "- " + untrusted_text::escape_line(t["name"].get<std::string>()) + " (" +
          report_text::format_points(t["points"].get<double>()) + " points, " +
          std::to_string(t["students"].get<int>()) + " students): " +
          untrusted_text::escape_line(t["reason"].get<std::string>()) + "\n";
  }
  return md + "\n";
}

}  // namespace parlab::grader::batch
