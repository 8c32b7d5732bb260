#include "grading/grader_tree_seal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/errors.hpp"
#include "grading/work_root_registry.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

fs::path normal(const fs::path& p) {
  fs::path n = fs::absolute(p).lexically_normal();
  return n.has_filename() ? n : n.parent_path();  // "dir/" is "dir"
}

// `inner` is `outer` or lies below it (lexically: both are normalised).
bool within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

bool is_real_directory(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() == fs::file_type::directory;
}

// One folder on the way to an allowed path: each entry is allowed (left open), on the
// way to another (walked), a link (left alone) or closed.
void walk(const fs::path& dir, const std::vector<fs::path>& allowed, TreeSeal& seal) {
  seal.passages.push_back(dir);
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  std::sort(entries.begin(), entries.end());
  for (const fs::path& entry : entries) {
    const fs::file_type type = fs::symlink_status(entry, ec).type();
    if (ec || type == fs::file_type::symlink || type == fs::file_type::not_found) continue;
    const bool is_allowed = std::any_of(allowed.begin(), allowed.end(),
                                        [&](const fs::path& a) { return within(entry, a); });
    const bool leads_to_allowed = std::any_of(allowed.begin(), allowed.end(),
                                              [&](const fs::path& a) { return within(a, entry); });
    if (is_allowed) {
      seal.open.push_back(entry);
    } else if (leads_to_allowed && type == fs::file_type::directory) {
      walk(entry, allowed, seal);
    } else {
      seal.closed.push_back(entry);
    }
  }
}

[[noreturn]] void cannot_change(const fs::path& path, const char* what) {
  throw EnvironmentError("cannot close the grader's files to the submission's uid: " + path.string() +
                         " (" + what + ": " + std::strerror(errno) + "); a submission could read it");
}

// Through a descriptor opened without following a link (a link planted in the tree must
// not make root change its target), non-blocking (a FIFO must not hang the grader).
// Sockets and other entries that cannot be opened hold nothing to read: left alone. An
// entry others may not use at all, whose group is not the submissions', is left as it
// is: a submission's run gets the others' bits there anyway (a private folder keeps its
// group and mode).
void set_group_bits(const fs::path& path, gid_t gid, mode_t (*bits)(mode_t)) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ELOOP || errno == ENXIO || errno == ENOENT || errno == EOPNOTSUPP) return;
    cannot_change(path, "open");
  }
  struct stat info {};
  bool ok = ::fstat(fd, &info) == 0;
  const bool concerns_runs = (info.st_mode & 07) != 0 || info.st_gid == gid;
  if (ok && concerns_runs && info.st_gid != gid) ok = ::fchown(fd, static_cast<uid_t>(-1), gid) == 0;
  const mode_t wanted = (info.st_mode & 07707) | bits(info.st_mode);
  if (ok && concerns_runs && (info.st_mode & 07777) != wanted) ok = ::fchmod(fd, wanted) == 0;
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (!ok) cannot_change(path, "chgrp/chmod");
}

mode_t no_group_bits(mode_t) { return 0; }
// Search as the others may search, never listing: a folder others may not enter stays
// closed to the submissions too.
mode_t search_only(mode_t mode) { return (mode & S_IXOTH) << 3; }
mode_t others_bits_for_group(mode_t mode) { return (mode & 07) << 3; }

// An allowed path gets its group permission back only where a seal took it (its group
// is the submissions'): anything else keeps its owner's choice.
void reopen(const fs::path& path, gid_t gid) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0 || S_ISLNK(info.st_mode) || info.st_gid != gid) return;
  set_group_bits(path, gid, others_bits_for_group);
}

void add_if_set(std::vector<fs::path>& list, const fs::path& p) {
  if (!p.empty()) list.push_back(p);
}

// `gitdir: PATH` from a `.git` file, relative to the folder holding it.
fs::path git_file_target(const fs::path& git_file) {
  std::ifstream in(git_file);
  std::string line;
  if (!std::getline(in, line) || line.rfind("gitdir:", 0) != 0) return {};
  std::string target = line.substr(7);
  target.erase(0, target.find_first_not_of(" \t"));
  if (target.empty()) return {};
  fs::path p = target;
  return normal(p.is_absolute() ? p : git_file.parent_path() / p);
}

// Seals of concurrent gradings one at a time: a seal planned before another grading
// registered its work root, but applied after that grading's own seal, would close the
// folder the other grading runs in (two gradings of one build with different work dirs:
// the test suite's parallel tests, two instructors' runs). Without the lock file (not
// root, a read-only build) the seal runs unserialised, as before.
class SealLock {
 public:
  explicit SealLock(const fs::path& registry)
      : fd_(::open((registry.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~SealLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  SealLock(const SealLock&) = delete;
  SealLock& operator=(const SealLock&) = delete;

 private:
  int fd_;
};

}  // namespace

TreeSeal plan_tree_seal(const std::vector<fs::path>& roots, const std::vector<fs::path>& allowed) {
  std::vector<fs::path> open;
  for (const fs::path& a : allowed) open.push_back(normal(a));
  std::vector<fs::path> tops;
  for (const fs::path& r : roots) tops.push_back(normal(r));
  std::sort(tops.begin(), tops.end());
  tops.erase(std::unique(tops.begin(), tops.end()), tops.end());
  TreeSeal seal;
  for (const fs::path& root : tops) {
    const bool nested = std::any_of(tops.begin(), tops.end(),
                                    [&](const fs::path& other) { return other != root && within(root, other); });
    if (!nested && is_real_directory(root)) walk(root, open, seal);
  }
  return seal;
}

std::vector<fs::path> submission_needs(const Toolchain& tc, const std::vector<fs::path>& work_roots) {
  std::vector<fs::path> needs = work_roots;
  add_if_set(needs, tc.harness_include);
  add_if_set(needs, tc.harness_lib);
  add_if_set(needs, tc.cuda_probe);
  add_if_set(needs, tc.sim.rewrite_tool);
  add_if_set(needs, tc.sim.code_places_tool);
  add_if_set(needs, tc.sim.library);
  for (const fs::path& dir : tc.sim.include_dirs) add_if_set(needs, dir);
  add_if_set(needs, tc.sim.prelude_pch_dir);
  // The misbehaving programs the process runner's own tests run as a submission's uid
  // (tests/fakes/children): nothing of the grader's is there.
  if (!tc.build_dir.empty()) needs.push_back(tc.build_dir / "tests" / "fakes");
  for (const auto& [id, lab] : tc.labs) {
    add_if_set(needs, lab.dir);
    add_if_set(needs, lab.driver_lib);
    add_if_set(needs, lab.sim_driver_lib);
  }
  return needs;
}

std::vector<fs::path> grader_roots(const Toolchain& tc) {
  std::vector<fs::path> roots;
  add_if_set(roots, tc.source_dir);
  add_if_set(roots, tc.build_dir);
  return roots;
}

std::vector<fs::path> git_folders_elsewhere(const fs::path& source_dir) {
  const fs::path dot_git = source_dir / ".git";
  std::error_code ec;
  if (fs::symlink_status(dot_git, ec).type() != fs::file_type::regular) return {};
  const fs::path git_dir = git_file_target(dot_git);
  if (git_dir.empty() || !is_real_directory(git_dir)) return {};
  std::vector<fs::path> found = {git_dir};
  std::ifstream in(git_dir / "commondir");
  if (std::string common; std::getline(in, common) && !common.empty()) {
    fs::path p = common;
    p = normal(p.is_absolute() ? p : git_dir / p);
    if (is_real_directory(p)) found.push_back(p);
  }
  return found;
}

void apply_tree_seal(const TreeSeal& seal, gid_t submissions_gid) {
  for (const fs::path& p : seal.closed) set_group_bits(p, submissions_gid, no_group_bits);
  for (const fs::path& p : seal.passages) set_group_bits(p, submissions_gid, search_only);
  for (const fs::path& p : seal.open) reopen(p, submissions_gid);
}

void seal_grader_tree(const Toolchain& toolchain, const fs::path& work_root, gid_t submissions_gid) {
  const std::vector<fs::path> roots = grader_roots(toolchain);
  const fs::path here = normal(work_root);
  const fs::path registry = work_root_registry(toolchain.build_dir);
  const SealLock one_seal_at_a_time(registry);
  if (std::any_of(roots.begin(), roots.end(), [&](const fs::path& r) { return within(here, normal(r)); }))
    register_work_root(registry, here);
  std::vector<fs::path> work_roots = registered_work_roots(registry);
  work_roots.push_back(here);
  TreeSeal seal = plan_tree_seal(roots, submission_needs(toolchain, work_roots));
  for (const fs::path& git : git_folders_elsewhere(toolchain.source_dir)) seal.closed.push_back(git);
  apply_tree_seal(seal, submissions_gid);
}

}  // namespace parlab::grader
