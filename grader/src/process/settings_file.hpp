#pragma once
// The simulator's settings for one run (RunRequest::simulator_settings) as a sealed
// memory file: the child gets it at the descriptor number below, where the runtime
// reads and closes it before any code of the submission runs (docs/sandbox.md, "The
// runtime locks itself before the submission runs"). Sealed against writes, so the
// runtime can tell it from any other descriptor at that number.
#include <string>

#include "process/unique_fd.hpp"

namespace parlab::grader::process {

// The number the runtime reads: parlab_sim::kSettingsDescriptor
// (sim/include/parlab_sim/settings_descriptor.hpp; a unit test checks they agree).
inline constexpr int kSimSettingsDescriptor = 1000;

// The file holding `text`, close-on-exec here, read from its start. Throws
// std::system_error.
UniqueFd sealed_settings_file(const std::string& text);

}  // namespace parlab::grader::process
