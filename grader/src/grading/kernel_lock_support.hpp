#pragma once
// What this machine's kernel lacks of the simulator's lock (docs/sandbox.md, "The runtime
// locks itself before the submission runs"): the runtime locks with what the kernel has,
// and the grading says what was missing so that an instructor knows the run was less sealed.
#include <string>
#include <vector>

namespace parlab::grader {

// "mseal (Linux 6.10)", "Landlock (Linux 5.13, enabled)": each one the kernel refused here.
std::vector<std::string> missing_lock_features();

// The result's note for those gaps; empty when nothing is missing.
std::string lock_gap_note(const std::vector<std::string>& missing);

}  // namespace parlab::grader
