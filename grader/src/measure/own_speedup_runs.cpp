#include "measure/own_speedup_runs.hpp"

#include <algorithm>
#include <functional>

namespace parlab::grader {

namespace {

class Rounds {
 public:
  Rounds(const OwnSpeedupRunners& runners, OwnSpeedupWalls& out) : runners_(runners), out_(out) {}

  bool own() { return submission(runners_.own, out_.own_s); }
  bool parallel() { return submission(runners_.parallel, out_.parallel_s); }
  bool reference() { return reference(runners_.reference, out_.reference_s); }
  bool reference_parallel() { return reference(runners_.reference_parallel, out_.reference_parallel_s); }

 private:
  // Never stops the rounds: the reference's runs go on alone.
  bool submission(const TimedRun& run, std::vector<double>& walls) {
    if (out_.own_failed || !run) return true;
    std::string ignored;
    const auto seen = run(ignored);
    if (seen) keep(*seen, walls);
    out_.own_failed = !seen;
    return true;
  }
  bool reference(const TimedRun& run, std::vector<double>& walls) {
    if (!run) return true;
    const auto seen = run(out_.error);
    if (seen) keep(*seen, walls);
    out_.reference_failed = !seen;
    return seen.has_value();
  }
  void keep(const TimedSample& seen, std::vector<double>& walls) {
    walls.push_back(seen.wall_s);
    out_.others_cores = std::max(out_.others_cores, seen.others_cores);
  }

  const OwnSpeedupRunners& runners_;
  OwnSpeedupWalls& out_;
};

}  // namespace

OwnSpeedupWalls own_speedup_walls(const OwnSpeedupRunners& runners, int rounds) {
  OwnSpeedupWalls out;
  Rounds r(runners, out);
  // Round i starts i places into O P R Q (O P R Q, P R Q O, R Q O P, Q O P R): over four
  // rounds each run takes each place once, and no run follows itself.
  const std::function<bool()> in_turn[] = {[&] { return r.own(); }, [&] { return r.parallel(); },
                                           [&] { return r.reference(); },
                                           [&] { return r.reference_parallel(); }};
  bool ok = true;
  for (int i = 0; i < rounds && ok; ++i) {
    for (int place = 0; place < 4 && ok; ++place) ok = in_turn[(i + place) % 4]();
  }
  if (out.own_failed) out.parallel_s.clear();
  return out;
}

}  // namespace parlab::grader
