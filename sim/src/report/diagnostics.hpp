#pragma once
// Findings that do not stop the program but that a teacher would point out: a barrier
// some threads had exited before, a shuffle reading a lane that is not taking part, a
// device allocation never freed, a data race (docs/simulation.md, "Findings").
//
// Each distinct finding (kind + key, usually the source line) is reported once: on
// stderr as "parlab-sim: warning: ...", and, when PARLAB_SIM_DIAGNOSTICS names a file,
// appended to it as one JSON line {"kind": ..., "summary": ..., "message": ...}. The grader reads that
// file back (untrusted, capped) and shows the findings in the test's feedback.
#include <string>
#include <string_view>

namespace parlab_sim::detail {

// Stable kind names, read by the grader (grading/sim_mode.cpp).
inline constexpr const char* kFindingExitedBeforeBarrier = "exited_before_barrier";
inline constexpr const char* kFindingInactiveLaneRead = "inactive_lane_read";
inline constexpr const char* kFindingDeviceMemoryLeak = "device_memory_leak";
inline constexpr const char* kFindingDataRace = "data_race";
// Not a bug: correct code the simulator does not run; the program stops after it
// (parlab_sim/unsupported_feature.hpp), and the grader leaves the test out.
inline constexpr const char* kFindingUnsupportedFeature = "unsupported_feature";

// Records a finding unless one with the same kind and key was already recorded (or the
// cap on findings is reached). Thread-safe; never called from a signal handler.
// `summary` is one short line with the place ("early exit before the __syncthreads()
// at lab.cu:31"); `message` explains it.
void report_finding(const char* kind, std::string_view key, const std::string& summary,
                    const std::string& message);

// Findings recorded so far (for tests), as "kind: message" lines.
std::string findings_text();
void forget_findings();

}  // namespace parlab_sim::detail
