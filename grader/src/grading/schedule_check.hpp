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
#include "spec/lab_spec.hpp"

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
  // Another answer past 100 times the test's tolerance (or a failed run): the code's
  // logic depends on the order, not only its floating-point rounding, so the task's
  // other tests fail with it (grading/task_orders).
  bool beyond_rounding = true;
};

// The tolerance of `spec` 100 times wider (the "close" band of compare/'s mismatch
// patterns; exact arrays stay exact): a re-run's answer within it differs by rounding.
ComparatorSpec rounding_band(const ComparatorSpec& spec);

// Fails a passed `result` whose re-run gave another answer; anything else is left as it
// is. `first_seed`: the seed of the test's own run. `hidden`: the message says where,
// never the values (hidden data stays hidden). True when it failed the test.
bool apply_schedule_check(TestResult& result, const std::string& first_seed,
                          const ReorderedRun& rerun, bool hidden);

// What to look for in code whose answer depends on the order threads run in.
std::string order_dependence_advice();

}  // namespace parlab::grader
