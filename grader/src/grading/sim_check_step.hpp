#pragma once
// A GPU performance test graded in the simulator by a counter (docs/simulation.md,
// "Scored counter checks"): the submission's run on the check's small dataset, its
// outputs compared, its counters (read defensively) scored against the reference's.
#include <map>
#include <optional>
#include <string>

#include "grading/grading_context.hpp"
#include "grading/sim_counters.hpp"

namespace parlab::grader {

// `reference`: the reference's counters on the same data (nothing: none counted);
// `counters_on`: the simulator counts at all (else the message says they are off).
TestResult run_sim_check(GradingContext& ctx, const TestSpec& t,
                         const std::map<std::string, TestResult>& done,
                         const std::optional<CounterTotals>& reference, bool counters_on);

}  // namespace parlab::grader
