// What the child starts with: exactly the given environment and arguments, its
// work dir as cwd, stdin empty, no inherited descriptors, its own session, the
// resource limits, and (as root) an unprivileged user.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::test;

namespace {

std::set<std::string> lines_of(const std::string& text) {
  std::set<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.insert(line);
  return lines;
}

// fake_self_report's "key=value" lines.
std::map<std::string, std::string> report_of(const RunResult& result) {
  std::map<std::string, std::string> report;
  for (const std::string& line : lines_of(result.stdout_text)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) report[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return report;
}

uid_t owner_of(const std::filesystem::path& path) {
  struct stat info {};
  REQUIRE(::lstat(path.c_str(), &info) == 0);
  return info.st_uid;
}

}  // namespace

TEST_CASE("The child's environment is exactly the request's env", "[process][env]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ::setenv("PARLAB_GRADER_SECRET", "must-not-leak", 1);
  ScratchDir scratch;
  RunRequest request = fake_request("print_env", scratch);
  request.env = {{"ALPHA", "1"}, {"PARLAB_GREETING", "hi there"}, {"EMPTY", ""}};
  RunResult result = runner.run(request);
  REQUIRE(result.outcome == RunOutcome::ok);
  CHECK(lines_of(result.stdout_text) ==
        std::set<std::string>{"ALPHA=1", "PARLAB_GREETING=hi there", "EMPTY="});

  // A requested PWD is kept as given (bubblewrap would set its own).
  request.env = {{"PWD", "/somewhere/else"}};
  RunResult pwd = runner.run(request);
  REQUIRE(pwd.outcome == RunOutcome::ok);
  CHECK(pwd.stdout_text == "PWD=/somewhere/else\n");

  request.env.clear();
  RunResult empty = runner.run(request);
  REQUIRE(empty.outcome == RunOutcome::ok);
  CHECK(empty.stdout_text.empty());
  ::unsetenv("PARLAB_GRADER_SECRET");
}

TEST_CASE("Arguments reach the child unchanged, spaces and empty ones too", "[process][env]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("ok_echo", scratch);
  request.args = {"two words", "", "--flag", "$HOME"};
  RunResult result = runner.run(request);
  REQUIRE(result.outcome == RunOutcome::ok);
  CHECK(result.stdout_text ==
        "arg: two words\narg: \narg: --flag\narg: $HOME\ngreeting: (unset)\n");
}

TEST_CASE("argv[0] is the executable's name as given, not where a symlink leads",
          "[process][env]") {
  // Multi-call programs read their own name: clang++ is a symlink to clang.
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  std::filesystem::create_directories(scratch / "bin");
  std::filesystem::path alias = scratch / "bin" / "alias";
  std::filesystem::create_symlink(fake_child("self_report"), alias);
  RunRequest request = fake_request("self_report", scratch);
  request.executable = alias;
  RunResult result = runner.run(request);
  REQUIRE(result.outcome == RunOutcome::ok);
  CHECK(report_of(result)["argv0"] == alias.string());
}

TEST_CASE("The work dir is created with its parents and is the child's cwd", "[process][env]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("self_report", scratch);
  request.work_dir = scratch / "runs" / "deep" / "r1";
  RunResult result = runner.run(request);
  REQUIRE(result.outcome == RunOutcome::ok);
  CHECK(std::filesystem::is_directory(request.work_dir));
  CHECK(report_of(result)["cwd"] == std::filesystem::canonical(request.work_dir).string());
}

TEST_CASE("The child has its own session and group, empty stdin, no inherited fds",
          "[process][env]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  // A descriptor the grader holds open without close-on-exec must not reach the child.
  int leaked = ::open("/dev/null", O_RDONLY);
  REQUIRE(leaked >= 3);
  RunResult result = runner.run(fake_request("self_report", scratch));
  ::close(leaked);
  REQUIRE(result.outcome == RunOutcome::ok);
  auto report = report_of(result);
  if (runner.sandbox_name() == "rlimits only") {
    // What lets the grader kill the whole tree with kill(-pid). Under bubblewrap the
    // program is a grandchild in its own pid namespace, which dies as a whole instead.
    CHECK(report["own_process_group"] == "yes");
    CHECK(report["session_leader"] == "yes");
  }
  CHECK(report["stdin_bytes"] == "0");
  CHECK(report["fds"] == "0,1,2");
  CHECK(report["no_new_privs"] == "1");
}

TEST_CASE("The simulator's settings reach the child at their descriptor, not in its environment",
          "[process][env]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("self_report", scratch);
  request.simulator_settings = "PARLAB_SIM_RACE_CHECK=1\n";
  RunResult result = runner.run(request);
  REQUIRE(result.outcome == RunOutcome::ok);
  CHECK(report_of(result)["fds"] == "0,1,2,1000,1001");
  RunRequest read = fake_request("read_path", scratch);
  read.args = {"/proc/self/fd/1000"};
  read.simulator_settings = "PARLAB_SIM_RACE_CHECK=1\n";
  RunResult text = runner.run(read);
  REQUIRE(text.outcome == RunOutcome::ok);
  CHECK(text.stdout_text == "PARLAB_SIM_RACE_CHECK=1\n");
  RunRequest env = fake_request("print_env", scratch);
  env.simulator_settings = "PARLAB_SIM_RACE_CHECK=1\n";
  CHECK(runner.run(env).stdout_text.find("PARLAB_SIM_") == std::string::npos);
}

TEST_CASE("With simulator settings the child gets a report channel, which the grader reads as the run goes",
          "[process][env]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest sent = fake_request("write_fd", scratch);
  sent.args = {"1001", "F first line\n", "read-back"};
  sent.simulator_settings = "PARLAB_SIM_RACE_CHECK=1\n";
  RunResult result = runner.run(sent);
  REQUIRE(result.outcome == RunOutcome::ok);
  // What it sent cannot be read back, neither from its end nor reopened through /proc.
  CHECK(result.stdout_text == "sent\n");
  REQUIRE(result.simulator_report);
  CHECK(*result.simulator_report == "F first line\n");
  CHECK_FALSE(result.simulator_report_truncated);
  // Sending without end is stopped, and said as such.
  RunRequest flood = fake_request("write_fd", scratch);
  flood.args = {"1001", "F x\n", "flood"};
  flood.simulator_settings = "PARLAB_SIM_RACE_CHECK=1\n";
  RunResult flooded = runner.run(flood);
  CHECK(flooded.outcome == RunOutcome::output_limit);
  CHECK_THAT(flooded.reason, Catch::Contains("through the simulator's report channel"));
  CHECK(flooded.simulator_report_truncated);
  // No settings, no channel: nothing at that number, and no report.
  RunRequest plain = fake_request("write_fd", scratch);
  plain.args = {"1001", "x"};
  RunResult without = runner.run(plain);
  CHECK(without.outcome != RunOutcome::ok);
  CHECK_FALSE(without.simulator_report);
}

TEST_CASE("The resource limits reach the child", "[process][env]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("self_report", scratch);
  request.limits.cpu_seconds = 1.5;
  request.limits.address_space_mb = 300;
  request.limits.file_size_mb = 7;
  request.limits.max_processes = 40;
  RunResult result = runner.run(request);
  REQUIRE(result.outcome == RunOutcome::ok);
  auto report = report_of(result);
  CHECK(report["cpu"] == "2/3");
  CHECK(report["as"] == std::to_string(300ull << 20) + "/" + std::to_string(300ull << 20));
  CHECK(report["fsize"] == std::to_string(7ull << 20) + "/" + std::to_string(7ull << 20));
  CHECK(report["core"] == "0/0");
  if (runner.drops_privileges()) {
    std::string processes = runner.sandbox_name() == "bubblewrap" ? "42" : "40";
    CHECK(report["nproc"] == processes + "/" + processes);
  }
}

TEST_CASE("A root grader's child runs as its leased pool uid, in the submissions' group only, without capabilities",
          "[process][env][privileges]") {
  if (::geteuid() != 0) {
    WARN("not running as root: the privilege drop is not exercised");
    return;
  }
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  REQUIRE(runner.drops_privileges());
  ScratchDir scratch;
  RunResult result = runner.run(fake_request("self_report", scratch));
  REQUIRE(result.outcome == RunOutcome::ok);
  auto report = report_of(result);
  const process::UidPoolConfig pool = process::uid_pool_config_from_environment();
  const uid_t uid = runner.run_uid();
  CHECK(uid >= pool.first);
  CHECK(uid < pool.first + pool.count);
  CHECK(report["uid"] == std::to_string(uid));
  CHECK(report["euid"] == std::to_string(uid));
  CHECK(report["gid"] == std::to_string(uid));
  // One supplementary group: the submissions' (uid_pool.hpp), which the sealed
  // instructor's files refuse (inside bubblewrap's user namespace it shows unmapped).
  CHECK(report["groups"] == "1");
  CHECK(report["cap_eff"] == "0000000000000000");
  CHECK(owner_of(scratch / "work") == uid);
}

TEST_CASE("With drop_privileges off a root grader's child stays root",
          "[process][env][privileges]") {
  if (::geteuid() != 0) {
    WARN("not running as root: nothing to test");
    return;
  }
  SandboxOptions options = options_with(SandboxOptions::Bubblewrap::never);
  options.drop_privileges = false;
  SandboxedRunner runner(options);
  CHECK_FALSE(runner.drops_privileges());
  ScratchDir scratch;
  RunResult result = runner.run(fake_request("self_report", scratch));
  REQUIRE(result.outcome == RunOutcome::ok);
  CHECK(report_of(result)["uid"] == "0");
  CHECK(owner_of(scratch / "work") == 0);
}

TEST_CASE("The work dir is handed over without following symlinks", "[process][env][privileges]") {
  if (::geteuid() != 0) {
    WARN("not running as root: no ownership changes to test");
    return;
  }
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::never));
  ScratchDir scratch;
  std::filesystem::path outside = scratch / "grader_only.txt";
  std::ofstream(outside) << "secret\n";
  std::filesystem::path work = scratch / "work";
  std::filesystem::create_directories(work / "inputs");
  std::ofstream(work / "inputs" / "data.txt") << "1 2 3\n";
  std::filesystem::create_symlink(outside, work / "link_to_outside");
  std::filesystem::create_hard_link(outside, work / "hard_link_to_outside");
  std::filesystem::create_directory_symlink(scratch.path(), work / "link_to_scratch");

  RunResult result = runner.run(fake_request("ok_echo", scratch));
  REQUIRE(result.outcome == RunOutcome::ok);
  const uid_t uid = runner.run_uid();
  CHECK(owner_of(work) == uid);
  CHECK(owner_of(work / "inputs") == uid);
  CHECK(owner_of(work / "inputs" / "data.txt") == uid);
  CHECK(owner_of(work / "link_to_outside") == uid);  // the link itself
  CHECK(owner_of(outside) == 0);                       // not its target
  CHECK(owner_of(work / "hard_link_to_outside") == 0);  // nor a file shared by a hard link
  CHECK(owner_of(scratch.path()) == 0);
}
