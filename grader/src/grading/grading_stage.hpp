#pragma once
// The first step of a grading: its own folder under the submission's work folder
// (grading/grading_area), folders left by killed gradings swept, every folder on the way
// made enterable but not listable, the submission's run area with its disk quota; and
// the report's notes on the sandbox. Everything goes when the stage does, unless kept.
#include <filesystem>
#include <optional>
#include <string>

#include "process/run_area.hpp"
#include "result/result.hpp"

namespace parlab::grader {

class GradingStage {
 public:
  // `work`: the submission's folder; `grading_dir`: this grading's, under work/gradings.
  // `keep`: --keep-runs (nothing removed, no quota); `quota_mb`: the run folders together.
  GradingStage(const std::filesystem::path& work, const std::filesystem::path& grading_dir,
               bool keep, std::uint64_t quota_mb);
  GradingStage(const GradingStage&) = delete;
  GradingStage& operator=(const GradingStage&) = delete;

  // "disk quota 1 GiB (tmpfs)" or why there is none, for the report.
  std::string run_area_description() const { return run_area_.describe(); }

 private:
  // Removes the grading's folder after the run area is gone, however the grading ends
  // (a kill -9 leaves it for the next grading of the same submission to sweep).
  struct RemoveOnExit {
    std::filesystem::path dir;
    bool keep;
    ~RemoveOnExit();
  };
  RemoveOnExit remove_;
  process::RunArea run_area_;
};

// The note when the submission runs without bubblewrap (asked off, or unavailable under
// `auto`: `fallback` says why); nothing with bubblewrap.
std::optional<std::string> weaker_sandbox_note(const std::string& sandbox, const std::string& level,
                                               const std::string& fallback);

// "sandbox: bubblewrap (level auto), <isolation>".
std::string sandbox_note(const HostInfo& host, const std::string& level);

}  // namespace parlab::grader
