#pragma once
// A check build's code places (sim/src/report/code_places.hpp): where each of its hook
// calls lies in the sources, worked out once per program by the simulator's
// parlab-sim-code-places and handed to every run of the program in its settings, so
// that a run names lines and weighs its code blocks without starting addr2line. The
// tool reads the submission's program (its line tables are the submission's work), so
// it runs sandboxed, as the fault lines' addr2line does (grading/fault_line).
#include <filesystem>
#include <optional>
#include <string>

#include "process/process_runner.hpp"

namespace parlab::grader {

// The settings line's name (the runtime's config/runtime_settings reads it).
inline constexpr const char* kCodePlacesSetting = "PARLAB_SIM_CODE_PLACES";

// The table's text, from `tool` run on `program` with `work_dir` as its only writable
// folder; nothing when the tool failed or printed what is no table (a line break,
// more than kMaxCodePlacesBytes): the runs then look their lines up themselves.
std::optional<std::string> code_places_of(ProcessRunner& runner, const std::filesystem::path& tool,
                                          const std::filesystem::path& program,
                                          const std::filesystem::path& work_dir);

inline constexpr std::size_t kMaxCodePlacesBytes = std::size_t{4} << 20;

}  // namespace parlab::grader
