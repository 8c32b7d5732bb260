#pragma once
// How the grader hands a run its simulator settings: not through the environment, which
// the submission can read, but through this inherited descriptor, a write-protected
// memory file of NAME=value lines (docs/sandbox.md). The runtime reads and closes it at
// start-up, before any code of the submission runs. The number is no secret.

namespace parlab_sim {

inline constexpr int kSettingsDescriptor = 1000;

}  // namespace parlab_sim
