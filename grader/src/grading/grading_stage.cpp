#include "grading/grading_stage.hpp"

#include "grading/grading_area.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// Made before the run area, so it exists when the area is mounted on grading_dir/runs.
fs::path made(const fs::path& dir) {
  fs::create_directories(dir);
  return dir;
}

// Folders of killed gradings swept; then enter, not list: a child (any uid) cannot
// browse other gradings or their folders. Returns where the run area goes.
fs::path swept_and_closed(const fs::path& work, const fs::path& grading_dir) {
  remove_abandoned_gradings(work / "gradings", grading_dir);
  const fs::perms enter_only = fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec;
  for (const fs::path& dir : {work.parent_path(), work, work / "gradings", grading_dir}) {
    std::error_code not_ours;  // a shared work root owned by someone else: leave it
    fs::permissions(dir, enter_only, not_ours);
  }
  return grading_dir / "runs";
}

}  // namespace

GradingStage::RemoveOnExit::~RemoveOnExit() {
  std::error_code ignored;
  if (!keep) fs::remove_all(dir, ignored);
}

GradingStage::GradingStage(const fs::path& work, const fs::path& grading_dir, bool keep,
                           std::uint64_t quota_mb)
    : remove_{made(grading_dir), keep},
      // The submission's run folders: one bounded area, removed after the grading.
      run_area_(swept_and_closed(work, grading_dir), quota_mb << 20, keep) {}

std::optional<std::string> weaker_sandbox_note(const std::string& sandbox, const std::string& level,
                                               const std::string& fallback) {
  if (sandbox == "bubblewrap") return std::nullopt;
  if (level != "off") {
    return "sandbox: bubblewrap unavailable (" +
           (fallback.empty() ? std::string("reason unknown") : fallback) +
           "), running with rlimits only: the submission can see the rest of "
           "this machine's files; use --sandbox require to refuse this";
  }
  return "sandbox: turned off (--sandbox off): rlimits only, the submission "
         "can see the rest of this machine's files";
}

std::string sandbox_note(const HostInfo& host, const std::string& level) {
  return "sandbox: " + host.sandbox + " (level " + level + "), " + host.isolation;
}

}  // namespace parlab::grader
