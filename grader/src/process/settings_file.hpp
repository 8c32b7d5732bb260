#pragma once
// The simulator's settings for one run (RunRequest::simulator_settings) as a sealed
// memory file: the child gets it at the descriptor number below, where the runtime
// reads and closes it before any code of the submission runs (docs/sandbox.md, "The
// runtime locks itself before the submission runs"). Sealed against writes, so the
// runtime can tell it from any other descriptor at that number.
#include <string>

#include "parlab_sim/settings_descriptor.hpp"
#include "process/unique_fd.hpp"

namespace parlab::grader::process {

// The number the runtime reads, from the simulator's own header (one definition).
inline constexpr int kSimSettingsDescriptor = parlab_sim::kSettingsDescriptor;
// The simulator's report channel (its sending end, in the child; the grader receives at the other).
inline constexpr int kSimReportDescriptor = parlab_sim::kReportDescriptor;

// The file holding `text`, close-on-exec here, read from its start. Throws
// std::system_error.
UniqueFd sealed_settings_file(const std::string& text);

}  // namespace parlab::grader::process
