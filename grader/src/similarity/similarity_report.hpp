#pragma once
// What `grade similarity` writes (docs/batch.md, "Similarity"): pairs.csv and
// pairs.json (every pair, ranked), index.html (the distribution, the clusters, the
// flagged pairs) and pairs/<n>.html per flagged pair, the matching regions side by
// side. Every student name and line of code is untrusted: escaped.
#include <filesystem>
#include <vector>

#include "similarity/class_sources.hpp"
#include "similarity/pair_scores.hpp"

namespace parlab::grader::similarity {

struct SimilarityResult {
  std::vector<PairScore> pairs;  // all tracks, ranked by score
  double flag_at = 0.6;          // pairs at or above it get a page and join clusters
};

void write_similarity_report(const ClassSources& sources, const SimilarityResult& result,
                             const std::filesystem::path& out_dir);

}  // namespace parlab::grader::similarity
