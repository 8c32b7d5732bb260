#pragma once
// Sim mode's schedule-perturbation re-run (docs/simulation.md, "Thread order"): a GPU
// correctness test that passed is run once more with the blocks, and each block's
// threads, started last first. An answer that changes depends on the order threads
// run in, which no GPU promises: the test fails with the reason.
#include <map>
#include <optional>
#include <string>

#include "result/result.hpp"

namespace parlab::grader {

// The run folder's name of the re-run of test run `slug`.
std::string reversed_run_name(const std::string& slug);

// The environment of the re-run, over sim mode's: reversed order. The race check and
// the counters already ran on the first run; they are off here so the re-run costs a
// plain sim run.
std::map<std::string, std::string> reversed_schedule_environment();

// What the re-run showed: nothing (the same answer) or why it differs.
struct ReversedRun {
  bool same_answer = true;
  std::string difference;  // the comparison's message, or why the run failed
};

// Fails a passed `result` whose re-run gave another answer; anything else is left as it
// is. `hidden`: the message says where, never the values (hidden data stays hidden).
void apply_schedule_check(TestResult& result, const ReversedRun& rerun, bool hidden);

}  // namespace parlab::grader
