#pragma once
// GPU correctness as strict as the simulator's: on a GPU, a visible GPU
// correctness test that passed runs again under NVIDIA's compute-sanitizer, once per tool
// (memcheck: out-of-bounds and misaligned accesses; racecheck: shared-memory races;
// synccheck: barriers in divergent code; initcheck: reads of memory nothing wrote), and
// a finding fails the test in the simulator's words (grading/sanitizer_report.hpp).
// docs/gpu.md, "Correctness under compute-sanitizer".
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "grading/lab_runner.hpp"
#include "grading/seen_race.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// compute-sanitizer's exit code when it found an error (--error-exitcode): a code no
// lab driver uses, so an exit with it is the tool's verdict, not the program's.
inline constexpr int kSanitizerErrorExit = 97;
// Its slowdown, which the run's wall and CPU limits are multiplied by (NVIDIA quotes
// 10x to 100x for racecheck; the labs' visible datasets are small).
inline constexpr double kSanitizerSlowdown = 30;

const std::vector<std::string>& sanitizer_tools();

// The argv prefix that runs a program under `tool`.
std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, const std::string& tool);

// What the tools decided: the one that failed the test ("" when none did), and, when
// racecheck failed it by its exit code, the race (the task's: grading/task_races).
struct SanitizerVerdict {
  std::string tool;
  std::optional<SeenRaceReport> race;
};

// Runs `inv` under each tool, stopping at the first that finds something, and fails
// `result` (a passed test) with the findings. `run_name` names the runs' folders.
SanitizerVerdict check_under_sanitizer(TestResult& result, const TaskInvocation& inv, LabRunner& runner,
                                       const std::filesystem::path& sanitizer, const std::string& run_name);

}  // namespace parlab::grader
