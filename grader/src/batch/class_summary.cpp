#include "batch/class_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "batch/class_conditions.hpp"
#include "batch/gradebook.hpp"
#include "measure/statistics.hpp"
#include "report/untrusted_text.hpp"

using nlohmann::json;

namespace parlab::grader::batch {
namespace {

bool finished(const StudentRecord& r) { return r.result.has_value(); }

// `shares`: each score as a share of what that student could earn where graded, so a
// full score in the simulator (68 of 100) is drawn as full, not as 60-70 %.
json score_distribution(const std::vector<double>& scores, const std::vector<double>& shares) {
  json d = {{"count", scores.size()}};
  if (scores.empty()) return d;
  d["min"] = *std::min_element(scores.begin(), scores.end());
  d["q1"] = quantile(scores, 0.25);
  d["median"] = median(scores);
  d["q3"] = quantile(scores, 0.75);
  d["max"] = *std::max_element(scores.begin(), scores.end());
  d["mean"] = std::accumulate(scores.begin(), scores.end(), 0.0) / scores.size();
  // Ten bins of the reachable share; a full score falls in the last one.
  std::vector<int> bins(10, 0);
  for (double share : shares) bins[std::clamp(static_cast<int>(share * 10), 0, 9)]++;
  d["histogram"] = bins;
  return d;
}

json people(const std::vector<StudentRecord>& records, StudentStatus status) {
  json a = json::array();
  for (const StudentRecord& r : records) {
    if (r.status == status) a.push_back({{"id", r.student.id}, {"name", r.student.name}, {"reason", record_reason(r)}});
  }
  return a;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

namespace {

// What could be earned where the class was graded (--no-perf, no GPU: less than the
// lab's points), so "out of 100" is not read as "out of what was possible".
double reachable_score(const std::vector<StudentRecord>& records) {
  double reachable = 0;
  for (const StudentRecord& r : records) {
    if (!finished(r)) continue;
    double graded = 0;
    for (const TestResult& tr : r.result->tests) {
      if (counts_in_graded_total(tr.status)) graded += tr.max_points;
    }
    reachable = std::max(reachable, graded);
  }
  return reachable;
}

// One test across the class: passes, attempts, and for a performance test the median
// speedup and the three fastest and slowest submissions (for the instructor to look at).
json test_summary(const ManifestTest& t, const std::vector<StudentRecord>& records) {
  int passed = 0, attempted = 0, not_judged = 0;
  std::vector<double> speedups;
  std::vector<std::pair<double, std::string>> by_speed;  // (ratio, student id)
  for (const StudentRecord& r : records) {
    if (!finished(r)) continue;
    // A grading without performance tests (--no-perf) did not attempt them.
    if (t.kind == TestKind::performance && !r.result->performance_enabled) continue;
    for (const TestResult& tr : r.result->tests) {
      if (tr.name != t.name) continue;
      // Not graded on that machine or inconclusive: neither a pass nor a failure.
      if (!counts_in_graded_total(tr.status)) {
        ++not_judged;
        continue;
      }
      ++attempted;
      if (tr.status == TestStatus::passed) ++passed;
      if (tr.measurement && tr.measurement->timing_trusted && !tr.measurement->counter) {
        speedups.push_back(tr.measurement->median_ratio);
        by_speed.emplace_back(tr.measurement->median_ratio, r.student.id);
      }
    }
  }
  json jt = {{"name", t.name}, {"kind", to_string(t.kind)}, {"points", t.points}, {"passed", passed},
             {"attempted", attempted}, {"not_judged", not_judged},
             {"pass_rate", attempted ? static_cast<double>(passed) / attempted : 0.0}};
  if (t.kind != TestKind::performance) return jt;
  jt["measured"] = speedups.size();
  jt["median_speedup"] = speedups.empty() ? json(nullptr) : json(median(speedups));
  std::sort(by_speed.begin(), by_speed.end());
  json slowest = json::array();
  json fastest = json::array();
  for (std::size_t i = 0; i < by_speed.size() && i < 3; ++i) {
    slowest.push_back({{"id", by_speed[i].second}, {"ratio", by_speed[i].first}});
    const auto& fast = by_speed[by_speed.size() - 1 - i];
    fastest.push_back({{"id", fast.second}, {"ratio", fast.first}});
  }
  jt["slowest"] = slowest;
  jt["fastest"] = fastest;
  return jt;
}

}  // namespace

json class_summary(const BatchManifest& m, const std::vector<StudentRecord>& records) {
  json s = {{"lab_id", m.lab_id}, {"lab_title", m.lab_title}, {"max_score", m.max_score},
            {"students", records.size()}};
  json counts = json::object();
  for (const char* name : {"graded", "build_failed", "rejected", "error", "pending", "missing"}) counts[name] = 0;
  std::vector<double> scores, shares;
  for (const StudentRecord& r : records) {
    counts[to_string(r.status)] = counts[to_string(r.status)].get<int>() + 1;
    if (!finished(r)) continue;
    scores.push_back(r.result->score);
    const double out_of = r.result->graded_max_score;
    shares.push_back(out_of > 0 ? r.result->score / out_of : 0.0);
  }
  s["counts"] = counts;
  s["score"] = score_distribution(scores, shares);
  s["graded_where"] = graded_where(records);
  s["reachable_score"] = reachable_score(records);
  json tests = json::array();
  for (const ManifestTest& t : m.tests) tests.push_back(test_summary(t, records));
  s["tests"] = tests;
  s["did_not_build"] = people(records, StudentStatus::build_failed);
  s["rejected"] = people(records, StudentStatus::rejected);
  s["errors"] = people(records, StudentStatus::error);
  s["pending"] = people(records, StudentStatus::pending);
  s["run_problems"] = run_problems(records);
  s["needs_gpu_grading"] = needs_gpu_grading(records);
  s["missing"] = people(records, StudentStatus::missing);
  json regraded = json::array();
  for (const StudentRecord& r : records) {
    if (finished(r) && !r.regraded_because.empty()) {
      regraded.push_back({{"id", r.student.id}, {"name", r.student.name}, {"reason", r.regraded_because}});
    }
  }
  s["regraded_after_change"] = regraded;
  s["not_on_roster"] = m.not_on_roster;
  s["ignored_files"] = m.ignored;
  return s;
}

std::string score_scale_text(const json& s) {
  const double max_score = s["max_score"].get<double>();
  const double reachable = s.value("reachable_score", max_score);
  if (reachable > 0 && reachable < max_score) {
    return "out of " + format_points(reachable) + " reachable where it was graded; the lab has " +
           format_points(max_score);
  }
  return "out of " + format_points(max_score);
}

namespace {

// One row per test; a test not graded where the class was graded says so and how often,
// never reads as a 0 % pass rate.
std::string tests_markdown(const json& tests) {
  std::string md = "\n## Tests\n\n| test | kind | points | passed | pass rate | not graded | median speedup |\n"
                   "|---|---|---|---|---|---|---|\n";
  for (const json& t : tests) {
    std::string speed = "";
    if (t.contains("median_speedup")) {
      speed = t["median_speedup"].is_null() ? "not measured" : fmt("%.2fx", t["median_speedup"]);
    }
    const bool attempted = t["attempted"].get<int>() > 0;
    const int not_judged = t.value("not_judged", 0);
    const bool performance = test_kind_from_string(t["kind"].get<std::string>()) == TestKind::performance;
    if (!attempted && performance) speed = "";
    std::string passed = std::to_string(t["passed"].get<int>()) + "/" + std::to_string(t["attempted"].get<int>()) +
                         " | " + fmt("%.0f %%", t["pass_rate"].get<double>() * 100);
    if (!attempted) {
      passed = std::string(not_judged > 0 ? "not graded there" : performance ? "not run (--no-perf)" : "none yet") +
               " | -";
    }
    md += "| " + t["name"].get<std::string>() + " | " + t["kind"].get<std::string>() + " | " +
          format_points(t["points"].get<double>()) + " | " + passed + " | " +
          (not_judged > 0 ? std::to_string(not_judged) : "") + " | " + speed + " |\n";
  }
  return md;
}

}  // namespace

std::string class_summary_markdown(const json& s) {
  std::string md = "# " + s["lab_id"].get<std::string>() + " class summary: " +
                   s["lab_title"].get<std::string>() + "\n\n";
  const json& c = s["counts"];
  md += std::to_string(s["students"].get<int>()) + " students: " + std::to_string(c["graded"].get<int>()) +
        " graded, " + std::to_string(c["build_failed"].get<int>()) + " did not build, " +
        std::to_string(c["rejected"].get<int>()) + " rejected, " + std::to_string(c["error"].get<int>()) +
        " grader errors, " + std::to_string(c["pending"].get<int>()) + " pending, " +
        std::to_string(c["missing"].get<int>()) + " missing.\n\n";
  const json& d = s["score"];
  if (s.contains("graded_where")) md += graded_where_markdown(s["graded_where"]);
  md += "## Scores (" + score_scale_text(s) + ")\n\n";
  if (d["count"].get<int>() > 0) {
    md += "| min | q1 | median | q3 | max | mean |\n|---|---|---|---|---|---|\n| " +
          fmt("%.2f", d["min"]) + " | " + fmt("%.2f", d["q1"]) + " | " + fmt("%.2f", d["median"]) + " | " +
          fmt("%.2f", d["q3"]) + " | " + fmt("%.2f", d["max"]) + " | " + fmt("%.2f", d["mean"]) + " |\n\n";
    md += "| share of the reachable score | students |\n|---|---|\n";
    for (int b = 0; b < 10; ++b) {
      md += "| " + std::to_string(b * 10) + (b == 9 ? "-100 %" : "-" + std::to_string(b * 10 + 10) + " %") +
            " | " + std::string(d["histogram"][b].get<int>(), '#') + " " +
            std::to_string(d["histogram"][b].get<int>()) + " |\n";
    }
  } else {
    md += "No finished gradings yet.\n";
  }
  md += tests_markdown(s["tests"]);
  auto list = [&md](const json& people, const std::string& title) {
    if (people.empty()) return;
    md += "\n## " + title + "\n\n";
    for (const json& p : people) {
      md += "- " + untrusted_text::escape_line(p["id"].get<std::string>()) +
            (p["name"].get<std::string>().empty()
                 ? ""
                 : " (" + untrusted_text::escape_line(p["name"].get<std::string>()) + ")") +
            ": " + p["reason"].get<std::string>() + "\n";
    }
  };
  list(s["did_not_build"], "Did not build");
  list(s["rejected"], "Rejected submissions");
  list(s["errors"], "Grader errors (re-run the batch to retry)");
  if (s.contains("run_problems")) list(s["run_problems"], "Crashed, timed out or exited wrongly in a test");
  if (s.contains("needs_gpu_grading")) {
    list(s["needs_gpu_grading"],
         "Grade on a GPU: their code stopped the simulator at a feature it does not run (those "
         "tests are left out of their total)");
  }
  list(s["pending"], "Not graded yet");
  list(s["missing"], "On the roster, no submission");
  list(s["regraded_after_change"], "Re-graded because something changed since their earlier grading");
  if (!s["not_on_roster"].empty()) {
    md += "\n## Not on the roster\n\n";
    for (const json& e : s["not_on_roster"]) md += "- " + e.get<std::string>() + "\n";
  }
  if (!s["ignored_files"].empty()) {
    md += "\n## Ignored files in the class folder\n\n";
    for (const json& e : s["ignored_files"]) md += "- " + e.get<std::string>() + "\n";
  }
  return md;
}

}  // namespace parlab::grader::batch
