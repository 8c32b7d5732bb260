#pragma once
// Correct CUDA code the simulator cannot run (docs/simulation.md, "Not supported, said
// so"): the program stops with exit status kExitUnsupportedFeature and a sealed finding
// "FEATURE at FILE:LINE", which the grader turns into "not graded here: needs a GPU
// (FEATURE at FILE:LINE)" for the test whose run got there. Nothing is lost: the other
// tests, whose runs never reach the feature, are graded as usual.
#include <source_location>

namespace parlab_sim {

// `feature`: a few words ("inline PTX (asm)"); `file` may be null (no place known).
[[noreturn]] void stop_at_unsupported_feature(const char* feature, const char* file, unsigned line);

[[noreturn]] inline void stop_at_unsupported_feature(
    const char* feature, std::source_location site = std::source_location::current()) {
  stop_at_unsupported_feature(feature, site.file_name(), static_cast<unsigned>(site.line()));
}

}  // namespace parlab_sim

// What parlab-sim-rewrite puts in place of an inline PTX statement (asm(...);): the
// program builds, and a run that reaches the statement stops there.
#define PARLAB_SIM_INLINE_PTX() ::parlab_sim::stop_at_unsupported_feature("inline PTX (asm)")
