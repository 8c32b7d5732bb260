// summary.html: the class summary (class_summary.hpp) for an instructor's browser: the
// counts, the score histogram, each test's pass rate and median speed ratio, the
// slowest and fastest submissions per performance test, and who needs attention.
// Student ids and names come from folder names and the roster: escaped.
#include <string>
#include <vector>

#include "batch/class_summary.hpp"
#include "report/html_page.hpp"
#include "report/report_text.hpp"
#include "util/number_format.hpp"

using nlohmann::json;

namespace parlab::grader::batch {
namespace {

using html::escape;

std::string text_of(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::string scores(const json& s) {
  const json& d = s["score"];
  std::string out = "<h2>Scores (" + escape(score_scale_text(s)) + ")</h2>\n";
  if (d["count"].get<int>() == 0) return out + "<p>No finished gradings yet.</p>\n";
  out += "<table id=\"score-stats\"><tr>";
  for (const char* k : {"min", "q1", "median", "q3", "max", "mean"}) out += std::string("<th>") + k + "</th>";
  out += "</tr>\n<tr>";
  for (const char* k : {"min", "q1", "median", "q3", "max", "mean"}) {
    out += std::string("<td data-stat=\"") + k + "\">" + report_text::format_points(d[k].get<double>()) + "</td>";
  }
  out += "</tr></table>\n";
  std::vector<int> bins = d["histogram"].get<std::vector<int>>();
  std::vector<std::string> labels;
  for (std::size_t b = 0; b < bins.size(); ++b) {
    // Shares of what each student could earn where graded: 68 of 68 reachable is full.
    labels.push_back(std::to_string(b * 10) + "-" + std::to_string(b * 10 + 10) + " %");
  }
  return out + "<div class=\"card\">" + html::histogram_svg(bins, labels) + "</div>\n";
}

std::string ranking(const json& people) {
  std::string out;
  for (const json& p : people) {
    out += (out.empty() ? "" : ", ") + escape(text_of(p, "id")) + " " +
           format_number(p["ratio"].get<double>(), 3) + "x";
  }
  return out;
}

// Why a test has no pass rate: not run at all (--no-perf), or run but not judged.
std::string not_attempted_text(const json& t) {
  const int not_judged = t.value("not_judged", 0);
  if (not_judged > 0) return "not graded there";
  return test_kind_from_string(t["kind"].get<std::string>()) == TestKind::performance ? "not run (--no-perf)" : "none yet";
}

std::string tests(const json& s) {
  std::string out = "<h2>Tests</h2>\n<table id=\"test-rates\">\n<tr><th>Test</th><th>Kind</th>"
                    "<th class=\"points\">Points</th><th>Passed</th><th>Pass rate</th>"
                    "<th>Not graded</th><th>Median speed ratio</th><th>Slowest</th><th>Fastest</th></tr>\n";
  for (const json& t : s["tests"]) {
    const int attempted = t["attempted"].get<int>();
    const double rate = t["pass_rate"].get<double>();
    std::string speed;
    if (t.contains("median_speedup") && !t["median_speedup"].is_null()) {
      speed = format_number(t["median_speedup"].get<double>(), 3) + "x";
    }
    out += "<tr data-test=\"" + escape(text_of(t, "name")) + "\"><td>" + escape(text_of(t, "name")) +
           "</td><td>" + escape(text_of(t, "kind")) + "</td><td class=\"points\">" +
           report_text::format_points(t["points"].get<double>()) + "</td><td>" +
           (attempted ? std::to_string(t["passed"].get<int>()) + " / " + std::to_string(attempted)
                      : not_attempted_text(t)) +
           "</td><td data-rate=\"" + format_number(rate, 3) + "\">" +
           (attempted ? html::fraction_bar_svg(rate) + " " + format_number(rate * 100, 3) + "%" : "") +
           "</td><td data-not-graded=\"" + std::to_string(t.value("not_judged", 0)) + "\">" +
           (t.value("not_judged", 0) > 0 ? std::to_string(t.value("not_judged", 0)) : "") + "</td><td>" + speed + "</td><td>" + (t.contains("slowest") ? ranking(t["slowest"]) : "") +
           "</td><td>" + (t.contains("fastest") ? ranking(t["fastest"]) : "") + "</td></tr>\n";
  }
  return out + "</table>\n";
}

// Where and how the class was graded, and the tests that could not be graded there.
std::string graded_where_html(const json& s) {
  if (!s.contains("graded_where")) return "";
  const json& w = s["graded_where"];
  std::string devices;
  for (const json& d : w["devices"]) devices += (devices.empty() ? "" : "; ") + escape(d.get<std::string>());
  std::string out = "<section id=\"graded-where\" class=\"card\"><p>Graded on: <span data-modes=\"";
  std::string modes;
  for (const json& m : w["modes"]) modes += (modes.empty() ? "" : " ") + m.get<std::string>();
  out += escape(modes) + "\">" + (devices.empty() ? std::string("nothing graded yet") : devices) + "</span></p>\n";
  if (!w["not_graded_tests"].empty()) {
    out += "<p>Not graded there (left out of every total, not counted as failures):</p><ul>\n";
    for (const json& t : w["not_graded_tests"]) {
      out += "<li data-not-graded-test=\"" + escape(text_of(t, "name")) + "\">" + escape(text_of(t, "name")) +
             " (" + report_text::format_points(t["points"].get<double>()) + " points, " +
             std::to_string(t["students"].get<int>()) + " students): " + escape(text_of(t, "reason")) + "</li>\n";
    }
    out += "</ul>\n";
  }
  return out + "</section>\n";
}

std::string people(const json& list, const std::string& title) {
  if (!list.is_array() || list.empty()) return "";
  std::string out = "<h2>" + escape(title) + "</h2>\n<div class=\"card\"><ul>\n";
  for (const json& p : list) {
    const std::string name = text_of(p, "name");
    out += "<li>" + escape(text_of(p, "id")) + (name.empty() ? "" : " (" + escape(name) + ")") +
           ": " + escape(text_of(p, "reason")) + "</li>\n";
  }
  return out + "</ul></div>\n";
}

}  // namespace

std::string class_summary_html(const json& s) {
  const json& c = s["counts"];
  std::string body = "<h1>" + escape(text_of(s, "lab_id") + " class summary: " + text_of(s, "lab_title")) +
                     "</h1>\n<section class=\"verdict\" id=\"counts\"><div class=\"total\" data-students=\"" +
                     std::to_string(s["students"].get<int>()) + "\">" + std::to_string(s["students"].get<int>()) +
                     " students</div><div class=\"left-out\">";
  std::string counts;
  for (const auto& [key, label] : std::vector<std::pair<const char*, const char*>>{
           {"graded", "graded"}, {"build_failed", "did not build"}, {"rejected", "rejected"},
           {"error", "grader errors"}, {"pending", "pending"}, {"missing", "missing"}}) {
    counts += (counts.empty() ? "" : ", ") + std::string("<span data-count=\"") + key + "\">" +
              std::to_string(c[key].get<int>()) + "</span> " + label;
  }
  body += counts + "</div></section>\n";
  body += graded_where_html(s) + scores(s) + tests(s);
  body += people(s["did_not_build"], "Did not build");
  body += people(s["rejected"], "Rejected submissions");
  body += people(s["errors"], "Grader errors (re-run the batch to retry)");
  if (s.contains("run_problems")) body += people(s["run_problems"], "Crashed, timed out or exited wrongly in a test");
  if (s.contains("needs_gpu_grading")) {
    body += people(s["needs_gpu_grading"],
                   "Grade on a GPU: their code stopped the simulator at a feature it does not run "
                   "(those tests are left out of their total)");
  }
  body += people(s["pending"], "Not graded yet");
  body += people(s["missing"], "On the roster, no submission");
  body += people(s["regraded_after_change"], "Re-graded because something changed");
  return html::page(text_of(s, "lab_id") + " class summary", body);
}

}  // namespace parlab::grader::batch
