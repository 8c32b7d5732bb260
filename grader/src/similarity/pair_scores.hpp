#pragma once
// Scores every pair of a track group from similarity-tester's runs. A's share of B is
// the fraction of A's code lines (not blank, not only a comment) inside runs matching B,
// counting neither side's lines that match the skeleton (the base code): the skeleton's
// own code never counts. A pair's score is the larger of its two shares, so a small
// solution copied into a larger one still shows.
#include <string>
#include <utility>
#include <vector>

#include "similarity/class_sources.hpp"
#include "similarity/sim_runs.hpp"

namespace parlab::grader::similarity {

struct Region {
  int a_first, a_last, b_first, b_last, tokens;  // lines of the pair's a and b
};

struct PairScore {
  std::string track;
  std::size_t a = 0, b = 0;  // indexes into the group's submissions
  double score = 0;          // max(share_a, share_b), 0..1
  double share_a = 0, share_b = 0;
  std::vector<Region> regions;  // the matching runs, outside the base code
};

// Runs `group.tester` (-n -e, minimum run `min_run` tokens) on the copies as a child
// process under `timeout_s`, in `work_dir`; with `base_only` (-S) each submission is
// compared with the skeleton only. Throws EnvironmentError when it fails.
std::vector<SimRun> run_tester(const TrackGroup& group, int min_run, bool base_only, double timeout_s,
                               const std::filesystem::path& work_dir);

// Every pair of the group's submissions. `runs` are the tester's runs between them;
// `base_runs` mark their lines that match the skeleton. The two are apart so the base
// can be matched with a shorter minimum run: a function's signature from the skeleton
// (about 20 tokens) is handed-out code, not a match between two students.
std::vector<PairScore> score_pairs(const TrackGroup& group, const std::vector<SimRun>& runs,
                                   const std::vector<SimRun>& base_runs);

}  // namespace parlab::grader::similarity
