#pragma once
// The whole check for one class (docs/batch.md, "Similarity"): copy the sources, run
// similarity-tester per track (pairs, then matches with the skeleton), score, write the
// report. Shared by `grade similarity` and `grade batch --similarity`.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "spec/lab_spec.hpp"

namespace parlab::grader::similarity {

struct SimilarityOptions {
  double flag_at = 0.6;     // pairs at or above get a page and join clusters
  int min_run = 24;         // tokens: shortest match between two submissions (sim -r)
  int base_min_run = 12;    // tokens: shortest match with the skeleton that is base code
  double timeout_s = 600;   // per run of similarity-tester
  std::optional<std::filesystem::path> roster;  // names the students as grade batch does
};

struct SimilaritySummary {
  std::size_t pairs = 0, flagged = 0;
  std::vector<std::string> not_compared;
  std::vector<std::string> notes;  // compared with a caveat (Python that does not tokenize)
};

// Writes index.html, pairs.csv, pairs.json, pairs/ under `out_dir` (its work/ holds the
// copies). Throws UsageError for a bad class folder, EnvironmentError when the tester fails.
SimilaritySummary run_class_similarity(const LabSpec& lab, const std::filesystem::path& class_dir,
                                       const std::filesystem::path& out_dir, const SimilarityOptions& o);

}  // namespace parlab::grader::similarity
