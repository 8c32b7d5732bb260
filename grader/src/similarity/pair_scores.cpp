// Line coverage from similarity-tester's runs (pair_scores.hpp).
#include "similarity/pair_scores.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "batch/child_grade.hpp"
#include "core/errors.hpp"
#include "similarity/python_tokens.hpp"
#include "util/program_on_path.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::similarity {
namespace {

// A line that carries code sim can match: some name or number outside a comment. Lines of braces
// alone fall between matched runs when functions are reordered; they say nothing.
bool is_code_line(const std::string& line, bool python) {
  std::string_view s(line);
  const auto comment = s.find(python ? "#" : "//");
  if (comment != std::string_view::npos) s = s.substr(0, comment);
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return false;
  s = s.substr(first);
  // sim_c++ reads no preprocessor lines (#include): no run can cover them.
  if (!python && (s.starts_with("/*") || s.starts_with("*") || s.starts_with("#"))) return false;
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

void mark(std::vector<bool>& lines, int first, int last) {
  for (int l = first; l <= last && l <= static_cast<int>(lines.size()); ++l) lines[l - 1] = true;
}

double share(const SourceCopy& c, const std::vector<bool>& base, const std::vector<bool>& hit, bool python) {
  int code = 0, covered = 0;
  for (std::size_t i = 0; i < c.lines.size(); ++i) {
    // A normalised Python copy says itself which lines carry code (docstrings do not).
    const bool carries_code = c.code_lines.empty() ? is_code_line(c.lines[i], python) : c.code_lines[i];
    if (!carries_code || base[i]) continue;
    ++code;
    if (hit[i]) ++covered;
  }
  return code == 0 ? 0.0 : static_cast<double>(covered) / code;
}

}  // namespace

std::vector<SimRun> run_tester(const TrackGroup& group, int min_run, bool base_only, double timeout_s,
                               const fs::path& work_dir) {
  const auto exe = program_on_path(group.tester);
  if (!exe) {
    throw EnvironmentError(group.tester + " not found: install Debian's similarity-tester (containers/install-deps.sh)");
  }
  const std::string stem = group.track + (base_only ? ".base" : ".pairs");
  const fs::path out = work_dir / (stem + ".sim.txt");
  std::vector<std::string> args{"-n", "-e", "-r", std::to_string(min_run), "-o", out.string()};
  if (base_only) args.push_back("-S");
  for (const auto& s : group.submissions) args.push_back(s.copy.string());
  args.push_back("/");
  args.push_back(group.base.copy.string());
  const fs::path log = work_dir / (stem + ".sim.log");
  batch::ChildRun r = batch::run_child(*exe, args, log, timeout_s);
  if (r.timed_out || r.exit_code != 0) {
    throw EnvironmentError(group.tester + " failed: " + r.describe() + " (its messages: " + log.string() + ")");
  }
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<SimRun> runs = parse_sim_runs(text.str());
  map_runs_to_source(group, runs);
  return runs;
}

std::vector<PairScore> score_pairs(const TrackGroup& group, const std::vector<SimRun>& runs,
                                   const std::vector<SimRun>& base_runs) {
  const bool python = group.kind == Track::python;
  const std::size_t n = group.submissions.size();
  std::map<std::string, std::size_t> index;  // copy path -> submission; the base is n
  for (std::size_t i = 0; i < n; ++i) index[group.submissions[i].copy.string()] = i;
  index[group.base.copy.string()] = n;
  auto at = [&](const std::string& f) {
    auto it = index.find(f);
    if (it == index.end()) throw EnvironmentError("similarity-tester named a file it was not given: " + f);
    return it->second;
  };
  std::vector<std::vector<bool>> base(n);
  for (std::size_t i = 0; i < n; ++i) base[i].assign(group.submissions[i].lines.size(), false);
  for (const auto& r : base_runs) {
    const std::size_t a = at(r.file_a), b = at(r.file_b);
    if (a != n && b == n) mark(base[a], r.a_first, r.a_last);
    if (a == n && b != n) mark(base[b], r.b_first, r.b_last);
  }
  std::map<std::pair<std::size_t, std::size_t>, std::vector<Region>> between;
  for (const auto& r : runs) {
    std::size_t a = at(r.file_a), b = at(r.file_b);
    if (a == b) continue;  // repetition inside one file
    if (a == n || b == n) {  // a submission's lines that match the skeleton: base code
      if (a == n) mark(base[b], r.b_first, r.b_last);
      else mark(base[a], r.a_first, r.a_last);
      continue;
    }
    if (a < b) between[{a, b}].push_back({r.a_first, r.a_last, r.b_first, r.b_last, r.tokens});
    else between[{b, a}].push_back({r.b_first, r.b_last, r.a_first, r.a_last, r.tokens});
  }
  std::vector<PairScore> out;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      PairScore p{group.track, a, b};
      std::vector<bool> hit_a(base[a].size(), false), hit_b(base[b].size(), false);
      for (const auto& g : between[{a, b}]) {
        mark(hit_a, g.a_first, g.a_last);
        mark(hit_b, g.b_first, g.b_last);
        p.regions.push_back(g);
      }
      p.share_a = share(group.submissions[a], base[a], hit_a, python);
      p.share_b = share(group.submissions[b], base[b], hit_b, python);
      p.score = std::max(p.share_a, p.share_b);
      out.push_back(std::move(p));
    }
  }
  std::sort(out.begin(), out.end(), [](const PairScore& x, const PairScore& y) { return x.score > y.score; });
  return out;
}

}  // namespace parlab::grader::similarity
