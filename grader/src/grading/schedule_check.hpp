#pragma once
// Sim mode's order check (docs/simulation.md, "Thread order"): every sim run of a
// submission starts its blocks, and each block's threads, in an order drawn from a seed
// the grader picks afresh per run (PARLAB_SIM_SEED, read and removed by the runtime
// before the submission's code runs). A GPU correctness test that passed is run again
// with other seeds, the same settings otherwise, so no run is special and a kernel cannot
// tell a checking run from a plain one. An answer that changes depends on the order
// threads run in, which no GPU promises: the test fails with the reason and both seeds.
#include <string>

#include "result/result.hpp"

namespace parlab::grader {

// Re-runs with other seeds after a passed GPU test in sim mode (each costs one run of the
// test; docs/performance.md has the catch rates that chose it): 2, or
// PARLAB_SIM_ORDER_RERUNS (0 to 10) from the grader's own environment.
int order_reruns();

// A fresh seed for one sim run: 16 hex digits from std::random_device.
std::string fresh_sim_seed();

// The run folder's name of the `n`-th re-run (1-based) of test run `slug`.
std::string reordered_run_name(const std::string& slug, int n);

// What a re-run showed: nothing (the same answer) or why it differs.
struct ReorderedRun {
  bool same_answer = true;
  std::string difference;  // the comparison's message, or why the run failed
  std::string seed;        // the re-run's seed, for reproduction
};

// Fails a passed `result` whose re-run gave another answer; anything else is left as it
// is. `first_seed`: the seed of the test's own run. `hidden`: the message says where,
// never the values (hidden data stays hidden).
void apply_schedule_check(TestResult& result, const std::string& first_seed,
                          const ReorderedRun& rerun, bool hidden);

}  // namespace parlab::grader
