// Registering a bridge over a private folder (process/reach_bridge) says up front when
// this system cannot make the children's view, instead of every child failing later
// with "bridging ... failed: Invalid argument": a chroot whose root is not a mount point
// refuses to make "/" private. Both cases run in a forked child (the bridge registry is
// process-wide, and the chroot must not touch the test runner). Root only.
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include "process/reach_bridge.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using parlab::testing::ScratchDir;

namespace {

// Runs `body` in a forked child; its exit status (0: the checks held).
int in_child(const std::function<int()>& body) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(body());
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

// blocked (0700) holding entry (0755), under `root`.
void make_private_tree(const fs::path& root) {
  fs::create_directories(root / "blocked" / "entry");
  ::chmod((root / "blocked").c_str(), 0700);
}

}  // namespace

TEST_CASE("a private folder is bridged where the root is a mount point",
          "[process][reach_bridge]") {
  if (::geteuid() != 0) {
    WARN("skipped: not root: the grader bridges nothing (children run as its own user)");
    return;
  }
  ScratchDir dir;
  make_private_tree(dir.path());
  const int status = in_child([&] {
    const auto why_not = parlab::grader::process::add_reach_bridge(dir.path() / "blocked", dir.path() / "blocked" / "entry");
    if (why_not) std::fprintf(stderr, "refused: %s\n", why_not->c_str());
    return why_not ? 1 : 0;
  });
  // A container without CAP_SYS_ADMIN refuses too (with its own reason): not this test's case.
  if (status == 1 && in_child([] { return ::unshare(CLONE_NEWNS) == 0 ? 0 : 1; }) != 0) {
    WARN("skipped: this machine gives no mount namespace (a container without SYS_ADMIN)");
    return;
  }
  CHECK(status == 0);
}

TEST_CASE("a chroot whose root is not a mount point: the bridge is refused up front, saying why",
          "[process][reach_bridge]") {
  if (::geteuid() != 0) {
    WARN("skipped: not root: chroot needs it");
    return;
  }
  ScratchDir dir;
  const fs::path root = dir.path() / "newroot";
  make_private_tree(root);
  fs::create_directories(root / "proc");
  const fs::path reason_file = dir.path() / "reason.txt";
  const int status = in_child([&] {
    // A namespace of the child's own, so /proc can be mounted in the new root (the
    // grader reads its capabilities there) without touching the machine's mounts.
    if (::unshare(CLONE_NEWNS) != 0) return 10;
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 11;
    if (::mount("proc", (root / "proc").c_str(), "proc", 0, nullptr) != 0) return 12;
    FILE* out = std::fopen(reason_file.c_str(), "w");
    if (out == nullptr || ::chroot(root.c_str()) != 0 || ::chdir("/") != 0) return 13;
    const auto why_not = parlab::grader::process::add_reach_bridge("/blocked", "/blocked/entry");
    std::fputs(why_not ? why_not->c_str() : "(registered)", out);
    std::fclose(out);
    return why_not ? 0 : 1;
  });
  if (status == 10 || status == 11) {
    WARN("skipped: this machine gives no mount namespace (a container without SYS_ADMIN)");
    return;
  }
  std::string reason;
  if (FILE* in = std::fopen(reason_file.c_str(), "r")) {
    char text[512] = {};
    reason = std::fgets(text, sizeof text, in) != nullptr ? text : "";
    std::fclose(in);
  }
  INFO("child status " << status << ", reason: " << reason);
  REQUIRE(status == 0);
  CHECK(reason.find("a view of /blocked could not be made here (Invalid argument") != std::string::npos);
  CHECK(reason.find("chroot") != std::string::npos);
}
