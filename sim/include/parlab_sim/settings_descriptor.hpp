#pragma once
// How the grader hands a run its simulator settings (docs/sandbox.md, "The runtime
// locks itself before the submission runs"): not through the environment, which the
// submission can read, but through this inherited descriptor, a sealed memory file of
// "NAME=value" lines (the PARLAB_SIM_* names of docs/simulation.md, "Settings"). The
// runtime reads it and closes it at start-up, before any code of the submission runs.
// The grader's runner (process/child_setup) places it here; the number is no secret.

namespace parlab_sim {

inline constexpr int kSettingsDescriptor = 1000;

}  // namespace parlab_sim
