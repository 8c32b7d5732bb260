#include "process/bwrap_command.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace parlab::grader::process;

namespace {

using Args = std::vector<std::string>;

// Index of the option triple/pair starting with `option` and ending at `dest`.
std::ptrdiff_t position_of(const Args& args, const std::string& option, const std::string& dest) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != option) continue;
    std::size_t width =
        (option == "--proc" || option == "--dev" || option == "--tmpfs" || option == "--chdir" ||
         option == "--json-status-fd" || option == "--remount-ro" || option == "--size")
            ? 1
            : 2;
    if (i + width < args.size() && args[i + width] == dest) return static_cast<std::ptrdiff_t>(i);
  }
  return -1;
}

bool has(const Args& args, const std::string& option, const std::string& dest) {
  return position_of(args, option, dest) >= 0;
}

BwrapLayout typical_layout() {
  BwrapLayout layout;
  layout.system_dirs = {{"/usr", false, ""}, {"/lib", true, "usr/lib"}, {"/etc", false, ""}};
  layout.read_only = {"/build/lab01"};
  layout.work_dir = "/tmp/grading/run1";
  layout.executable = "/build/lab01/submission";
  return layout;
}

}  // namespace

TEST_CASE("bwrap arguments isolate namespaces and end with --", "[process][bwrap]") {
  Args args = bubblewrap_arguments(typical_layout());
  CHECK(std::find(args.begin(), args.end(), "--unshare-all") != args.end());
  CHECK(std::find(args.begin(), args.end(), "--die-with-parent") != args.end());
  CHECK(std::find(args.begin(), args.end(), "--new-session") != args.end());
  CHECK(std::find(args.begin(), args.end(), "--share-net") == args.end());
  CHECK(args.back() == "--");
}

TEST_CASE("System dirs are bound read-only and symlinks recreated", "[process][bwrap]") {
  Args args = bubblewrap_arguments(typical_layout());
  CHECK(has(args, "--ro-bind", "/usr"));
  CHECK(has(args, "--ro-bind", "/etc"));
  CHECK_FALSE(has(args, "--ro-bind", "/lib"));
  std::ptrdiff_t link = position_of(args, "--symlink", "/lib");
  REQUIRE(link >= 0);
  CHECK(args[link + 1] == "usr/lib");
  CHECK(has(args, "--proc", "/proc"));
  CHECK(has(args, "--dev", "/dev"));
  CHECK(has(args, "--tmpfs", "/tmp"));
}

TEST_CASE("View paths are bound at the same place, the work dir read-write", "[process][bwrap]") {
  Args args = bubblewrap_arguments(typical_layout());
  std::ptrdiff_t ro = position_of(args, "--ro-bind", "/build/lab01");
  REQUIRE(ro >= 0);
  CHECK(args[ro + 1] == "/build/lab01");
  CHECK(has(args, "--bind", "/tmp/grading/run1"));
  std::ptrdiff_t chdir = position_of(args, "--chdir", "/tmp/grading/run1");
  CHECK(chdir >= 0);
  // The executable lies inside a read-only view path: no extra bind for it.
  CHECK_FALSE(has(args, "--ro-bind", "/build/lab01/submission"));
}

TEST_CASE("Parents are mounted before children, so nothing is hidden", "[process][bwrap]") {
  Args args = bubblewrap_arguments(typical_layout());
  // The work dir lives in /tmp: the tmpfs must come first or it would cover it.
  CHECK(position_of(args, "--tmpfs", "/tmp") < position_of(args, "--bind", "/tmp/grading/run1"));

  BwrapLayout nested = typical_layout();
  nested.read_write = {"/data/out"};
  nested.read_only = {"/data/out/sub/deeper", "/data"};
  Args nested_args = bubblewrap_arguments(nested);
  CHECK(position_of(nested_args, "--ro-bind", "/data") <
        position_of(nested_args, "--bind", "/data/out"));
  CHECK(position_of(nested_args, "--bind", "/data/out") <
        position_of(nested_args, "--ro-bind", "/data/out/sub/deeper"));
}

TEST_CASE("An executable outside every mount is bound on its own", "[process][bwrap]") {
  BwrapLayout layout = typical_layout();
  layout.executable = "/elsewhere/bin/program";
  Args args = bubblewrap_arguments(layout);
  CHECK(has(args, "--ro-bind", "/elsewhere/bin/program"));
  CHECK_FALSE(has(args, "--ro-bind", "/elsewhere"));
}

TEST_CASE("A symlinked executable is bound under the name it is invoked by",
          "[process][bwrap]") {
  BwrapLayout layout = typical_layout();
  layout.executable = "/opt/tools/bin/clang++";
  layout.executable_target = "/opt/tools/lib/clang";
  Args args = bubblewrap_arguments(layout);
  std::ptrdiff_t bind = position_of(args, "--ro-bind", "/opt/tools/bin/clang++");
  REQUIRE(bind >= 0);
  CHECK(args[bind + 1] == "/opt/tools/lib/clang");

  // Visible name, invisible target: the target is bound too, so the link resolves.
  layout.executable = "/build/lab01/link";
  layout.executable_target = "/elsewhere/real";
  Args linked = bubblewrap_arguments(layout);
  CHECK(has(linked, "--ro-bind", "/elsewhere/real"));
  CHECK_FALSE(has(linked, "--ro-bind", "/build/lab01/link"));
}

TEST_CASE("A work dir inside a read-write view path is not bound twice", "[process][bwrap]") {
  BwrapLayout layout = typical_layout();
  layout.read_write = {"/tmp/grading"};
  Args args = bubblewrap_arguments(layout);
  CHECK(has(args, "--bind", "/tmp/grading"));
  CHECK_FALSE(has(args, "--bind", "/tmp/grading/run1"));
}

TEST_CASE("GPU device nodes and the status fd are passed through", "[process][bwrap]") {
  BwrapLayout layout = typical_layout();
  layout.device_nodes = {"/dev/nvidia0", "/dev/nvidiactl"};
  layout.status_fd = 7;
  Args args = bubblewrap_arguments(layout);
  CHECK(has(args, "--dev-bind", "/dev/nvidia0"));
  CHECK(has(args, "--dev-bind", "/dev/nvidiactl"));
  CHECK(position_of(args, "--dev", "/dev") < position_of(args, "--dev-bind", "/dev/nvidia0"));
  std::ptrdiff_t status = position_of(args, "--json-status-fd", "7");
  CHECK(status >= 0);
}

TEST_CASE("The sandbox root is made read-only after every mount", "[process][bwrap]") {
  Args args = bubblewrap_arguments(typical_layout());
  std::ptrdiff_t remount = position_of(args, "--remount-ro", "/");
  REQUIRE(remount >= 0);
  CHECK(remount > position_of(args, "--bind", "/tmp/grading/run1"));
  CHECK(remount > position_of(args, "--ro-bind", "/build/lab01"));
}

TEST_CASE("The private /tmp gets a size when one is given", "[process][bwrap]") {
  BwrapLayout layout = typical_layout();
  layout.tmp_size_bytes = 1 << 20;
  Args args = bubblewrap_arguments(layout);
  std::ptrdiff_t tmpfs = position_of(args, "--tmpfs", "/tmp");
  REQUIRE(tmpfs >= 2);
  CHECK(args[tmpfs - 2] == "--size");
  CHECK(args[tmpfs - 1] == "1048576");
  CHECK(position_of(bubblewrap_arguments(typical_layout()), "--size", "") < 0);
}

TEST_CASE("env(1) removes bwrap's PWD or restores the requested one", "[process][bwrap]") {
  CHECK(command_with_requested_pwd("/usr/bin/env", "/b/prog", std::nullopt) ==
        Args{"/usr/bin/env", "-u", "PWD", "/b/prog"});
  CHECK(command_with_requested_pwd("/usr/bin/env", "/b/prog", std::string("/wanted")) ==
        Args{"/usr/bin/env", "PWD=/wanted", "/b/prog"});
  CHECK(command_with_requested_pwd("", "/b/prog", std::nullopt) == Args{"/b/prog"});
  CHECK(command_with_requested_pwd("/usr/bin/env", "/b/x=y/prog", std::nullopt) ==
        Args{"/b/x=y/prog"});
}

TEST_CASE("is_within compares whole path components", "[process][bwrap]") {
  CHECK(is_within("/a/b", "/a"));
  CHECK(is_within("/a", "/a"));
  CHECK(is_within("/a/b/c", "/"));
  CHECK_FALSE(is_within("/ab", "/a"));
  CHECK_FALSE(is_within("/a", "/a/b"));
}

TEST_CASE("inspect_system_dirs sees this host's /usr and /etc", "[process][bwrap]") {
  std::vector<SystemDir> dirs = inspect_system_dirs();
  auto named = [&](const std::string& path) {
    return std::find_if(dirs.begin(), dirs.end(),
                        [&](const SystemDir& d) { return d.path == path; });
  };
  REQUIRE(named("/usr") != dirs.end());
  CHECK_FALSE(named("/usr")->is_symlink);
  REQUIRE(named("/etc") != dirs.end());
}
