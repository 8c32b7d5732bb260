// Writes the similarity report (similarity_report.hpp).
#include "similarity/similarity_report.hpp"

#include <nlohmann/json.hpp>
#include <functional>
#include <map>

#include "report/html_page.hpp"
#include "util/atomic_write.hpp"
#include "util/number_format.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::similarity {
namespace {

const TrackGroup& group_of(const ClassSources& s, const PairScore& p) {
  for (const auto& g : s.groups) {
    if (g.track == p.track) return g;
  }
  return s.groups.front();
}

std::string csv_field(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Lines first..last of a copy as the student's files name them: "kernels.cu:13-40"
// (a lab with several sources is one concatenated copy for the tester).
std::string where(const SourceCopy& c, int first, int last) {
  const auto& f = c.origins.at(first - 1);
  const auto& l = c.origins.at(last - 1);
  return f.file + ":" + std::to_string(f.line) + "-" + (l.file == f.file ? "" : l.file + ":") + std::to_string(l.line);
}

// One side of a pair: its lines, those inside a matching region highlighted.
std::string side_html(const SourceCopy& c, const std::vector<std::pair<int, int>>& ranges) {
  std::string out = "<pre>";
  for (std::size_t i = 0; i < c.lines.size(); ++i) {
    const int line = static_cast<int>(i) + 1;
    bool hit = false;
    for (auto [f, l] : ranges) hit = hit || (line >= f && line <= l);
    const auto& o = c.origins[i];
    out += std::string(hit ? "<mark>" : "<span>") + html::escape(o.file + ":" + std::to_string(o.line)) + "  " +
           html::escape(c.lines[i]) + (hit ? "</mark>\n" : "</span>\n");
  }
  return out + "</pre>";
}

std::string pair_page(const TrackGroup& g, const PairScore& p) {
  const auto& a = g.submissions[p.a];
  const auto& b = g.submissions[p.b];
  std::vector<std::pair<int, int>> ra, rb;
  std::string table = "<table><tr><th>" + html::escape(a.student) + " lines</th><th>" +
                      html::escape(b.student) + " lines</th><th>tokens</th></tr>\n";
  for (const auto& r : p.regions) {
    ra.push_back({r.a_first, r.a_last});
    rb.push_back({r.b_first, r.b_last});
    table += "<tr><td>" + html::escape(where(a, r.a_first, r.a_last)) + "</td><td>" +
             html::escape(where(b, r.b_first, r.b_last)) + "</td><td>" +
             std::to_string(r.tokens) + "</td></tr>\n";
  }
  std::string body = "<h1>" + html::escape(a.student) + " and " + html::escape(b.student) + ": " +
                     format_number(p.score, 3) + "</h1>\n<p>Track " + html::escape(g.track) +
                     "; the skeleton's code is not counted.</p>\n" + table + "</table>\n" +
                     "<div style=\"display:flex;gap:1em\"><div style=\"flex:1;overflow:auto\">" + side_html(a, ra) +
                     "</div><div style=\"flex:1;overflow:auto\">" + side_html(b, rb) + "</div></div>\n";
  return html::page("Similarity: " + a.student + " and " + b.student, body);
}

// Clusters: students joined by flagged pairs (union-find over names).
std::vector<std::vector<std::string>> clusters(const ClassSources& s, const SimilarityResult& r) {
  std::map<std::string, std::string> parent;
  std::function<std::string(const std::string&)> root = [&](const std::string& x) {
    if (!parent.count(x) || parent[x] == x) return parent[x] = x;
    return parent[x] = root(parent[x]);
  };
  for (const auto& p : r.pairs) {
    if (p.score < r.flag_at) continue;
    const auto& g = group_of(s, p);
    parent[root(g.track + "/" + g.submissions[p.a].student)] = root(g.track + "/" + g.submissions[p.b].student);
  }
  std::map<std::string, std::vector<std::string>> by_root;
  for (const auto& [x, _] : parent) by_root[root(x)].push_back(x);
  std::vector<std::vector<std::string>> out;
  for (auto& [_, members] : by_root) out.push_back(members);
  return out;
}

std::string class_page(const ClassSources& s, const SimilarityResult& r) {
  std::vector<int> bins(10, 0);
  std::vector<std::string> labels;
  for (int i = 0; i < 10; ++i) labels.push_back(std::to_string(i * 10) + "%");
  for (const auto& p : r.pairs) ++bins[std::min(9, static_cast<int>(p.score * 10))];
  std::string body = "<h1>Similarity across the class</h1>\n<p>" + std::to_string(r.pairs.size()) +
                     " pairs; flagged at " + format_number(r.flag_at, 3) + " and above.</p>\n<h2>Distribution</h2>" +
                     html::histogram_svg(bins, labels) + "\n<h2>Clusters</h2>\n<ul>\n";
  for (const auto& c : clusters(s, r)) {
    std::string names;
    for (const auto& m : c) names += (names.empty() ? "" : ", ") + html::escape(m);
    body += "<li>" + names + "</li>\n";
  }
  body += "</ul>\n<h2>Flagged pairs</h2>\n<table><tr><th>score</th><th>a</th><th>b</th></tr>\n";
  for (std::size_t i = 0; i < r.pairs.size() && r.pairs[i].score >= r.flag_at; ++i) {
    const auto& p = r.pairs[i];
    const auto& g = group_of(s, p);
    body += "<tr><td><a href=\"pairs/" + std::to_string(i) + ".html\">" + format_number(p.score, 3) +
            "</a></td><td>" + html::escape(g.submissions[p.a].student) + "</td><td>" +
            html::escape(g.submissions[p.b].student) + "</td></tr>\n";
  }
  body += "</table>\n<h2>Not compared</h2>\n<ul>\n";
  for (const auto& k : s.skipped) body += "<li>" + html::escape(k) + "</li>\n";
  if (!s.notes.empty()) body += "</ul>\n<h2>Notes</h2>\n<ul>\n";
  for (const auto& k : s.notes) body += "<li>" + html::escape(k) + "</li>\n";
  return html::page("Similarity", body + "</ul>\n");
}

}  // namespace

void write_similarity_report(const ClassSources& s, const SimilarityResult& r, const fs::path& out_dir) {
  fs::create_directories(out_dir / "pairs");
  std::string csv = "track,a,b,score,share_a,share_b,regions\n";
  nlohmann::json pairs = nlohmann::json::array();
  for (std::size_t i = 0; i < r.pairs.size(); ++i) {
    const auto& p = r.pairs[i];
    const auto& g = group_of(s, p);
    const auto& a = g.submissions[p.a].student;
    const auto& b = g.submissions[p.b].student;
    csv += p.track + "," + csv_field(a) + "," + csv_field(b) + "," + format_number(p.score, 4) + "," +
           format_number(p.share_a, 4) + "," + format_number(p.share_b, 4) + "," + std::to_string(p.regions.size()) + "\n";
    pairs.push_back({{"track", p.track}, {"a", a}, {"b", b}, {"score", p.score}, {"share_a", p.share_a},
                     {"share_b", p.share_b}, {"regions", p.regions.size()}, {"flagged", p.score >= r.flag_at}});
    if (p.score >= r.flag_at) write_file_atomically(out_dir / "pairs" / (std::to_string(i) + ".html"), pair_page(g, p));
  }
  write_file_atomically(out_dir / "pairs.csv", csv);
  write_file_atomically(out_dir / "pairs.json",
               nlohmann::json{{"flag_at", r.flag_at}, {"pairs", pairs}, {"not_compared", s.skipped}, {"notes", s.notes}}
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  write_file_atomically(out_dir / "index.html", class_page(s, r));
}

}  // namespace parlab::grader::similarity
