// One class's similarity check, end to end (class_similarity.hpp).
#include "similarity/class_similarity.hpp"

#include <algorithm>
#include <map>

#include "batch/roster.hpp"

#include "similarity/class_sources.hpp"
#include "similarity/pair_scores.hpp"
#include "similarity/python_tokens.hpp"
#include "similarity/similarity_report.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::similarity {

SimilaritySummary run_class_similarity(const LabSpec& lab, const fs::path& class_dir, const fs::path& out_dir,
                                       const SimilarityOptions& o) {
  const fs::path work = out_dir / "work";  // the copies similarity-tester reads
  fs::remove_all(work);
  std::map<std::string, std::string> names;
  if (o.roster) {
    for (const auto& e : batch::load_roster(*o.roster)) names[e.folder] = e.name.empty() ? e.id : e.id + " (" + e.name + ")";
  }
  ClassSources sources = copy_class_sources(lab, class_dir, work, names);
  SimilarityResult result;
  result.flag_at = o.flag_at;
  for (auto& g : sources.groups) {
    if (g.submissions.size() < 2) continue;
    if (g.kind == Track::python) {
      for (auto& note : normalise_python_group(g, o.timeout_s, work)) sources.notes.push_back(std::move(note));
    }
    auto runs = run_tester(g, o.min_run, false, o.timeout_s, work);
    auto base = run_tester(g, o.base_min_run, true, o.timeout_s, work);
    for (auto& p : score_pairs(g, runs, base)) result.pairs.push_back(std::move(p));
  }
  std::stable_sort(result.pairs.begin(), result.pairs.end(),
                   [](const PairScore& x, const PairScore& y) { return x.score > y.score; });
  write_similarity_report(sources, result, out_dir);
  SimilaritySummary s;
  s.pairs = result.pairs.size();
  for (const auto& p : result.pairs) s.flagged += p.score >= o.flag_at ? 1 : 0;
  s.not_compared = sources.skipped;
  s.notes = sources.notes;
  return s;
}

}  // namespace parlab::grader::similarity
