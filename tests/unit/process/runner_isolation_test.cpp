// What the program cannot reach: files outside its view, places outside its work
// dir, the network; and what it cannot leave behind: running grandchildren.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::test;
using Catch::Contains;

namespace {

bool skip_without_bubblewrap() {
  if (bubblewrap_works_here()) return false;
  WARN("bubblewrap does not work on this machine: sandbox isolation not tested");
  return true;
}

// The heartbeat_<n> files of fake_fork_children, by name.
std::map<std::string, std::string> heartbeats(const std::filesystem::path& work_dir) {
  std::map<std::string, std::string> beats;
  for (const auto& entry : std::filesystem::directory_iterator(work_dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("heartbeat_", 0) != 0) continue;
    std::ifstream in(entry.path());
    beats[name] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return beats;
}

std::vector<pid_t> printed_child_pids(const std::string& stdout_text) {
  std::vector<pid_t> pids;
  std::istringstream in(stdout_text);
  std::string word;
  pid_t pid;
  while (in >> word >> pid)
    if (word == "child") pids.push_back(pid);
  return pids;
}

// Grandchildren wrote a heartbeat every 20 ms while alive; none may still beat.
void check_heartbeats_stopped(const std::filesystem::path& work_dir, std::size_t expected) {
  auto before = heartbeats(work_dir);
  CHECK(before.size() == expected);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(heartbeats(work_dir) == before);
}

// A TCP listener on 127.0.0.1 (ephemeral port) for the network test.
class LoopbackListener {
 public:
  LoopbackListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), size) == 0);
    REQUIRE(::listen(fd_, 4) == 0);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) == 0);
    port_ = ntohs(address.sin_port);
  }
  ~LoopbackListener() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace

TEST_CASE("Under bubblewrap a file outside the view does not exist for the program",
          "[process][isolation]") {
  if (skip_without_bubblewrap()) return;
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::required));
  ScratchDir scratch;
  std::filesystem::create_directories(scratch / "hidden");
  std::ofstream(scratch / "hidden" / "expected_output.txt") << "the answer\n";
  std::filesystem::create_directories(scratch / "dataset");
  std::ofstream(scratch / "dataset" / "input.txt") << "visible input\n";
  ::chmod((scratch / "dataset").c_str(), 0755);

  RunRequest request = fake_request("read_path", scratch);
  request.args = {(scratch / "hidden" / "expected_output.txt").string()};
  RunResult hidden = runner.run(request);
  CHECK(hidden.exit_code == 2);
  CHECK_THAT(hidden.stdout_text, Contains("No such file or directory"));

  // The same kind of file inside a read-only view path can be read.
  request.view.read_only.push_back(scratch / "dataset");
  request.args = {(scratch / "dataset" / "input.txt").string()};
  RunResult visible = runner.run(request);
  CHECK(visible.outcome == RunOutcome::ok);
  CHECK(visible.stdout_text == "visible input\n");

  // The source tree (PARLAB_SOURCE_DIR), not in the view, is not there at all.
  request.args = {std::string(PARLAB_SOURCE_DIR) + "/CMakeLists.txt"};
  RunResult source = runner.run(request);
  CHECK(source.exit_code == 2);
}

TEST_CASE("Under bubblewrap the program cannot write outside its work dir",
          "[process][isolation]") {
  if (skip_without_bubblewrap()) return;
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::required));
  ScratchDir scratch;
  std::filesystem::create_directories(scratch / "dataset");
  ::chmod((scratch / "dataset").c_str(), 0777);  // writable even for nobody on the host
  RunRequest request = fake_request("write_outside", scratch);
  request.view.read_only.push_back(scratch / "dataset");

  // Outside the view, the sandbox's root is read-only.
  std::filesystem::path in_root = "/parlab-escape-test-" + std::to_string(::getpid());
  request.args = {in_root.string()};
  RunResult root = runner.run(request);
  CHECK(root.exit_code == 2);
  CHECK_THAT(root.stdout_text, Contains("Read-only file system"));
  CHECK_FALSE(std::filesystem::exists(in_root));

  // Next to the work dir is the sandbox's private /tmp: the write lands there and
  // vanishes with the sandbox; the real directory never sees it.
  request.args = {(scratch / "escape.txt").string()};
  runner.run(request);
  CHECK_FALSE(std::filesystem::exists(scratch / "escape.txt"));

  // Nor can the source tree be reached.
  std::filesystem::path in_source = std::filesystem::path(PARLAB_SOURCE_DIR) /
                                    ("parlab-escape-test-" + std::to_string(::getpid()));
  request.args = {in_source.string()};
  runner.run(request);
  CHECK_FALSE(std::filesystem::exists(in_source));

  // A read-only view path stays read-only.
  request.args = {(scratch / "dataset" / "tampered.txt").string()};
  RunResult read_only = runner.run(request);
  CHECK(read_only.exit_code == 2);
  CHECK_THAT(read_only.stdout_text, Contains("Read-only file system"));
  CHECK_FALSE(std::filesystem::exists(scratch / "dataset" / "tampered.txt"));

  // The work dir is where it can write.
  request.args = {(scratch / "work" / "fine.txt").string()};
  RunResult inside = runner.run(request);
  CHECK(inside.outcome == RunOutcome::ok);
  CHECK(std::filesystem::exists(scratch / "work" / "fine.txt"));
}

TEST_CASE("Without bubblewrap the privilege drop keeps the program out of root's dirs",
          "[process][isolation][privileges]") {
  if (::geteuid() != 0) {
    WARN("not running as root: the privilege drop is not exercised");
    return;
  }
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::never));
  ScratchDir scratch;
  std::filesystem::create_directories(scratch / "root_only");
  ::chmod((scratch / "root_only").c_str(), 0755);
  RunRequest request = fake_request("write_outside", scratch);
  request.args = {(scratch / "root_only" / "escape.txt").string()};
  RunResult result = runner.run(request);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.stdout_text, Contains("Permission denied"));
  CHECK_FALSE(std::filesystem::exists(scratch / "root_only" / "escape.txt"));
}

TEST_CASE("There is no network, not even loopback, at any sandbox level", "[process][isolation]") {
  LoopbackListener listener;
  ScratchDir scratch;
  RunRequest request = fake_request("connect_tcp", scratch);
  request.args = {std::to_string(listener.port())};

  // The listener takes a connection from an unfiltered process: the checks below would
  // prove nothing otherwise.
  {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<unsigned short>(listener.port()));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    ::close(fd);
  }
  // Without bubblewrap the seccomp filter refuses the socket (process/syscall_filter).
  RunResult open = SandboxedRunner(options_with(SandboxOptions::Bubblewrap::never)).run(request);
  CHECK(open.exit_code == 2);
  CHECK_THAT(open.stdout_text, Contains("cannot create a socket: Permission denied"));

  if (skip_without_bubblewrap()) return;
  RunResult sandboxed =
      SandboxedRunner(options_with(SandboxOptions::Bubblewrap::required)).run(request);
  CHECK(sandboxed.exit_code == 2);
  CHECK_THAT(sandboxed.stdout_text, Contains("cannot connect"));
}

TEST_CASE("Grandchildren are killed when the program exits (pids checked)",
          "[process][isolation][children]") {
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::never));
  ScratchDir scratch;
  RunRequest request = fake_request("fork_children", scratch);
  request.args = {"3", "exit"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::ok);
  std::vector<pid_t> pids = printed_child_pids(result.stdout_text);
  REQUIRE(pids.size() == 3);
  for (pid_t pid : pids) {
    CAPTURE(pid);
    errno = 0;
    CHECK(::kill(pid, 0) == -1);  // gone, and reaped: not even a zombie
    CHECK(errno == ESRCH);
  }
  check_heartbeats_stopped(scratch / "work", 3);
}

TEST_CASE("Grandchildren are killed when the program exits under bubblewrap",
          "[process][isolation][children]") {
  if (skip_without_bubblewrap()) return;
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::required));
  ScratchDir scratch;
  RunRequest request = fake_request("fork_children", scratch);
  request.args = {"3", "exit"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::ok);
  // Pids printed inside the sandbox's pid namespace mean nothing out here; the
  // heartbeats tell whether any grandchild still runs.
  check_heartbeats_stopped(scratch / "work", 3);
}

TEST_CASE("Grandchildren of a timed-out program are killed with it",
          "[process][isolation][children][slow]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("fork_children", scratch);
  request.args = {"2", "sleep"};
  request.limits.wall_seconds = 1;
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::timeout);
  CHECK(result.wall_seconds < 3);
  if (runner.sandbox_name() == "rlimits only") {
    for (pid_t pid : printed_child_pids(result.stdout_text)) CHECK(::kill(pid, 0) == -1);
  }
  check_heartbeats_stopped(scratch / "work", 2);
}

TEST_CASE("Runs leave no zombie children behind", "[process][isolation][children]") {
  // The grader is the subreaper of everything it starts, so whatever is left
  // over (grandchildren, bubblewrap's sandbox init) comes back to it and must
  // be reaped, on a normal exit and when the grader kills the run.
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest forking = fake_request("fork_children", scratch);
  forking.args = {"2", "exit"};
  CHECK(runner.run(forking).outcome == RunOutcome::ok);

  RunRequest flooding = fake_request("flood_stdout", scratch);
  flooding.args = {"forever"};
  flooding.limits.output_kill_bytes = 256 * 1024;
  CHECK(runner.run(flooding).outcome == RunOutcome::output_limit);

  errno = 0;
  CHECK(::waitpid(-1, nullptr, WNOHANG) == -1);
  CHECK(errno == ECHILD);
}
