#include "process/reach_bridge.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <string_view>

namespace fs = std::filesystem;

namespace parlab::grader::process {
namespace {

#ifndef OPEN_TREE_CLONE
constexpr unsigned kOpenTreeClone = 1;
#else
constexpr unsigned kOpenTreeClone = OPEN_TREE_CLONE;
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
constexpr unsigned kMoveMountEmptyPath = 0x00000004;
#else
constexpr unsigned kMoveMountEmptyPath = MOVE_MOUNT_F_EMPTY_PATH;
#endif
#ifndef AT_RECURSIVE
constexpr unsigned kAtRecursive = 0x8000;
#else
constexpr unsigned kAtRecursive = AT_RECURSIVE;
#endif

// The strings the plan points to live here, in a deque so pointers stay valid.
struct Registry {
  std::deque<std::string> texts;
  ReachPlan plan;
};

Registry& registry() {
  static Registry r;
  return r;
}

const char* keep(const std::string& text) { return registry().texts.emplace_back(text).c_str(); }

// Mounting in a child needs CAP_SYS_ADMIN: root on a machine has it, root in a
// container usually does not (without --privileged or --cap-add SYS_ADMIN).
bool can_mount() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("CapEff:", 0) != 0) continue;
    const unsigned long long caps = std::stoull(line.substr(7), nullptr, 16);
    return (caps >> 21) & 1ULL;  // CAP_SYS_ADMIN
  }
  return false;
}

// Whether a child can apply a bridge of `blocked` to `entry` here: tried once in a forked
// child, in a mount namespace of its own, so nothing changes for anyone else. Some roots
// refuse it although the grader may mount, e.g. a chroot whose root is not a mount point
// (making "/" private fails there with EINVAL). Returns why not, or nullopt.
std::optional<std::string> bridge_refused(const std::string& blocked, const std::string& entry) {
  ReachPlan probe;
  probe.bridge_count = 1;
  probe.bridges[0].blocked = blocked.c_str();
  probe.bridges[0].entries[0] = entry.c_str();
  probe.bridges[0].entry_count = 1;
  const pid_t child = ::fork();
  if (child < 0) return std::string("fork failed: ") + std::strerror(errno);
  if (child == 0) ::_exit(apply_reach_plan(probe) ? 0 : (errno > 0 && errno < 256 ? errno : 255));
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  const std::string cause =
      WIFEXITED(status) && WEXITSTATUS(status) != 255 ? std::strerror(WEXITSTATUS(status)) : "unknown error";
  return "a view of " + blocked + " could not be made here (" + cause +
         "; on a chroot whose root is not a mount point, for example), so children cannot pass it";
}

std::size_t depth(const char* path) {
  const std::string_view text(path);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '/'));
}

}  // namespace

std::optional<std::string> add_reach_bridge(const fs::path& blocked, const fs::path& entry) {
  if (::geteuid() != 0) return "the grader is not root, so it cannot give children a view";
  if (!can_mount())
    return "the grader may not mount (no CAP_SYS_ADMIN: a container without --privileged or "
           "--cap-add SYS_ADMIN), so it cannot give children a view";
  ReachPlan& plan = registry().plan;
  const std::string blocked_text = blocked.lexically_normal().string();
  const std::string entry_text = entry.lexically_normal().string();
  for (int i = 0; i < plan.bridge_count; ++i)  // registered before: tried then
    if (blocked_text == plan.bridges[i].blocked)
      for (int e = 0; e < plan.bridges[i].entry_count; ++e)
        if (entry_text == plan.bridges[i].entries[e]) return std::nullopt;
  if (auto why_not = bridge_refused(blocked_text, entry_text)) return why_not;
  ReachBridge* bridge = nullptr;
  for (int i = 0; i < plan.bridge_count; ++i)
    if (blocked_text == plan.bridges[i].blocked) bridge = &plan.bridges[i];
  if (bridge == nullptr) {
    if (plan.bridge_count == ReachPlan::kMaxBridges) return "too many private folders on the way";
    bridge = &plan.bridges[plan.bridge_count++];
    bridge->blocked = keep(blocked_text);
    // Outermost first: a deeper blocked folder lives inside an entry bound back earlier.
    std::stable_sort(plan.bridges, plan.bridges + plan.bridge_count,
                     [](const ReachBridge& a, const ReachBridge& b) { return depth(a.blocked) < depth(b.blocked); });
    for (int i = 0; i < plan.bridge_count; ++i)
      if (blocked_text == plan.bridges[i].blocked) bridge = &plan.bridges[i];
  }
  if (bridge->entry_count == ReachBridge::kMaxEntries) return "too many entries of " + blocked_text;
  bridge->entries[bridge->entry_count++] = keep(entry_text);
  return std::nullopt;
}

const ReachPlan& reach_plan() { return registry().plan; }

bool apply_reach_plan(const ReachPlan& plan) noexcept {
  if (plan.bridge_count == 0) return true;
  if (::unshare(CLONE_NEWNS) != 0) return false;
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  for (int b = 0; b < plan.bridge_count; ++b) {
    const ReachBridge& bridge = plan.bridges[b];
    int trees[ReachBridge::kMaxEntries];
    for (int e = 0; e < bridge.entry_count; ++e) {
      // A detached copy of the entry's mount tree (the run area's tmpfs included).
      trees[e] = static_cast<int>(::syscall(SYS_open_tree, AT_FDCWD, bridge.entries[e],
                                            kOpenTreeClone | kAtRecursive | O_CLOEXEC));
      if (trees[e] < 0) return false;
    }
    if (::mount("parlab-reach", bridge.blocked, "tmpfs", MS_NOSUID | MS_NODEV,
                "mode=0711,size=64k,nr_inodes=64") != 0)
      return false;
    for (int e = 0; e < bridge.entry_count; ++e) {
      if (::mkdir(bridge.entries[e], 0755) != 0 && errno != EEXIST) return false;
      if (::syscall(SYS_move_mount, trees[e], "", AT_FDCWD, bridge.entries[e], kMoveMountEmptyPath) != 0)
        return false;
      ::close(trees[e]);
    }
  }
  return true;
}

}  // namespace parlab::grader::process
