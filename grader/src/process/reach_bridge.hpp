#pragma once
// Lets an unprivileged child reach a folder whose ancestors it may not enter.
//
// A root newcomer clones parlab into /root (mode 0700): the build, the work dir and the
// labs are 0755, but the sandbox's pool uid cannot pass /root to reach them. Changing
// /root's mode is not the grader's business, so each child (still root, before it
// drops privileges) gets a mount namespace of its own in which the blocking folder is
// replaced by an empty tmpfs (mode 0711) holding only the entries the grading needs,
// bind-mounted back from the real tree (open_tree + move_mount). Paths do not change;
// the child sees nothing else of the blocked folder; the grader and the host are
// untouched. bubblewrap, started by that child, inherits the view.
//
// Bridges are registered once, before the first run (grading/sandbox_reach.cpp), and
// applied after fork() with async-signal-safe system calls only.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace parlab::grader::process {

// One blocked folder and the entries of it to bind back (absolute paths, their
// parent is `blocked`), outermost first in ReachPlan.
struct ReachBridge {
  static constexpr int kMaxEntries = 8;
  const char* blocked = nullptr;
  const char* entries[kMaxEntries] = {};
  int entry_count = 0;
};

struct ReachPlan {
  static constexpr int kMaxBridges = 8;
  ReachBridge bridges[kMaxBridges];
  int bridge_count = 0;
};

// Registers that `entry` (a folder whose parent `blocked` others cannot enter) must
// be reachable by children. Returns why it cannot be bridged (not root, too many
// bridges), or nullopt when it was registered. Call before any run starts.
std::optional<std::string> add_reach_bridge(const std::filesystem::path& blocked,
                                            const std::filesystem::path& entry);

// The registered bridges; stable storage, read by the child after fork().
const ReachPlan& reach_plan();

// In the forked child, as root: a private mount namespace with every bridge applied.
// Async-signal-safe; false with errno set on failure.
bool apply_reach_plan(const ReachPlan& plan) noexcept;

}  // namespace parlab::grader::process
