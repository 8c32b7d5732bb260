// Each way a program can end is classified with the right outcome and reason.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <fstream>

#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::test;
using Catch::Contains;
using Catch::StartsWith;

TEST_CASE("A program that exits 0 is ok, with its output and files", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("ok_echo", scratch);
  request.args = {"alpha", "beta"};
  request.env["PARLAB_GREETING"] = "hello";

  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::ok);
  CHECK(result.reason.empty());
  CHECK(result.exit_code == 0);
  CHECK(result.signal == 0);
  CHECK(result.signal_name.empty());
  CHECK(result.stdout_text == "arg: alpha\narg: beta\ngreeting: hello\n");
  CHECK(result.stderr_text == "ok_echo done\n");
  CHECK(result.wall_seconds > 0);
  CHECK(result.wall_seconds < 5);
  CHECK(std::filesystem::exists(scratch / "work" / "ok_echo.txt"));
}

TEST_CASE("A non-zero exit status is nonzero_exit naming the status", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("exit_code", scratch);
  request.args = {"3"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::nonzero_exit);
  CHECK(result.exit_code == 3);
  CHECK(result.signal == 0);
  CHECK(result.reason == "exited with status 3");
}

TEST_CASE("Exit status 86, the harness's out-of-memory code, is memory_limit",
          "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("exit_code", scratch);
  request.args = {"86"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::memory_limit);
  CHECK(result.exit_code == 86);
  CHECK(result.reason == "memory limit: the program ran out of memory (address-space limit 1 GiB)");
}

TEST_CASE("A segmentation fault is crashed, with SIGSEGV explained", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunResult result = runner.run(fake_request("segfault", scratch));
  CHECK(result.outcome == RunOutcome::crashed);
  CHECK(result.signal == SIGSEGV);
  CHECK(result.signal_name == "SIGSEGV");
  CHECK(result.exit_code == -1);
  CHECK(result.reason ==
        "crashed with SIGSEGV (segmentation fault: invalid memory access, e.g. a null or "
        "dangling pointer, or out-of-bounds index)");
  CHECK(result.stdout_text == "about to crash\n");  // output before the crash is kept
}

TEST_CASE("abort() is crashed with SIGABRT", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunResult result = runner.run(fake_request("abort", scratch));
  CHECK(result.outcome == RunOutcome::crashed);
  CHECK(result.signal == SIGABRT);
  CHECK(result.signal_name == "SIGABRT");
  CHECK_THAT(result.reason, StartsWith("crashed with SIGABRT (aborted: abort() was called"));
  CHECK(result.stderr_text == "giving up\n");
}

TEST_CASE("Other fatal signals are crashes named after the signal", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  int signal = GENERATE(SIGFPE, SIGBUS, SIGILL, SIGTERM);
  CAPTURE(signal);
  ScratchDir scratch;
  RunRequest request = fake_request("raise_signal", scratch);
  request.args = {std::to_string(signal)};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::crashed);
  CHECK(result.signal == signal);
  CHECK_THAT(result.reason, Contains(result.signal_name + " ("));
}

TEST_CASE("A SIGKILL the grader did not send reads 'killed by SIGKILL'", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("raise_signal", scratch);
  request.args = {std::to_string(SIGKILL)};
  RunResult result = runner.run(request);
  // crashed, or memory_limit if the kernel's OOM killer happened to run meanwhile
  CHECK((result.outcome == RunOutcome::crashed || result.outcome == RunOutcome::memory_limit));
  CHECK(result.signal_name == "SIGKILL");
  CHECK_THAT(result.reason, Contains("killed by SIGKILL"));
}

TEST_CASE("A program still running at the wall-clock limit is killed: timeout",
          "[process][runner][slow]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("sleep_forever", scratch);
  request.limits.wall_seconds = 1;
  auto start = std::chrono::steady_clock::now();
  RunResult result = runner.run(request);
  double elapsed = seconds_since(start);
  CHECK(result.outcome == RunOutcome::timeout);
  // The kill may come a tenth late on a loaded machine (measured: 1.1 s under ASan).
  CHECK_THAT(result.reason,
             Catch::Matches("time limit: still running after 1(\\.[0-9]+)? s \\(limit 1 s\\); killed"));
  CHECK(result.signal_name == "SIGKILL");
  CHECK(result.stdout_text == "sleeping\n");
  CHECK(result.wall_seconds >= 0.95);
  CHECK(result.wall_seconds < 3);
  CHECK(elapsed < 4);
}

TEST_CASE("A program that spins past the CPU limit gets cpu_limit (SIGXCPU)",
          "[process][runner][slow]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("cpu_spin", scratch);
  request.limits.cpu_seconds = 1;
  request.limits.wall_seconds = 20;
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::cpu_limit);
  CHECK(result.signal_name == "SIGXCPU");
  CHECK(result.reason ==
        "cpu limit: used more than 1 s of CPU time (summed over all its threads) and was "
        "stopped (SIGXCPU)");
  CHECK(result.wall_seconds < 10);  // CPU time, not the wall limit, ended it
}

TEST_CASE("Allocating past the address-space limit is memory_limit (uncaught bad_alloc)",
          "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("alloc_forever", scratch);
  request.limits.address_space_mb = 256;
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::memory_limit);
  CHECK(result.signal_name == "SIGABRT");
  CHECK_THAT(result.stderr_text, Contains("std::bad_alloc"));
  CHECK(result.reason ==
        "memory limit: a memory allocation failed (std::bad_alloc was not caught) "
        "(address-space limit 256 MiB)");
}

TEST_CASE("Writing a file past the file size limit is output_limit (SIGXFSZ)",
          "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("write_big_file", scratch);
  request.limits.file_size_mb = 1;
  request.args = {"4"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::output_limit);
  CHECK(result.signal_name == "SIGXFSZ");
  CHECK(result.reason ==
        "output limit: a file it wrote grew past the file size limit of 1 MiB (SIGXFSZ)");
  CHECK(std::filesystem::file_size(scratch / "work" / "big.bin") <= (1u << 20));
}

TEST_CASE("A missing executable is a tool error naming the path", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  ScratchDir scratch;
  RunRequest request = fake_request("ok_echo", scratch);
  request.executable = scratch / "no_such_program";
  CHECK_THROWS_AS(runner.run(request), std::runtime_error);
  CHECK_THROWS_WITH(runner.run(request), Contains((scratch / "no_such_program").string()));
}

TEST_CASE("A file without execute permission is a tool error naming the path",
          "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  ScratchDir scratch;
  std::filesystem::path script = scratch / "not_executable";
  std::ofstream(script) << "#!/bin/sh\nexit 0\n";
  ::chmod(script.c_str(), 0644);
  RunRequest request = fake_request("ok_echo", scratch);
  request.executable = script;
  CHECK_THROWS_AS(runner.run(request), std::runtime_error);
  CHECK_THROWS_WITH(runner.run(request),
                    Contains("no execute permission") && Contains(script.string()));

  request.executable = scratch.path();  // a directory
  CHECK_THROWS_WITH(runner.run(request), Contains("not a regular file"));
}

TEST_CASE("An executable file that is not a program is a tool error", "[process][runner]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  std::filesystem::path garbage = scratch / "garbage";
  std::ofstream(garbage) << "this is not machine code\n";
  ::chmod(garbage.c_str(), 0755);
  RunRequest request = fake_request("ok_echo", scratch);
  request.executable = garbage;
  CHECK_THROWS_WITH(runner.run(request), Contains("not a program") && Contains(garbage.string()));
}

TEST_CASE("A failed exec is a tool error that leaks no descriptor and no zombie",
          "[process][runner]") {
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::never));
  ScratchDir scratch;
  std::filesystem::path script = scratch / "needs_missing_interpreter";
  std::ofstream(script) << "#!/nonexistent/interpreter\n";
  ::chmod(script.c_str(), 0755);
  RunRequest request = fake_request("ok_echo", scratch);
  request.executable = script;
  auto open_descriptors = [] {
    auto entries = std::filesystem::directory_iterator("/proc/self/fd");
    return std::distance(begin(entries), end(entries));
  };
  auto before = open_descriptors();
  CHECK_THROWS_WITH(runner.run(request), Contains("cannot start") && Contains(script.string()) &&
                                             Contains("execve failed: No such file or directory"));
  CHECK(open_descriptors() == before);
  errno = 0;
  CHECK(::waitpid(-1, nullptr, WNOHANG) == -1);  // no child left unreaped
  CHECK(errno == ECHILD);
}

TEST_CASE("A malformed request is rejected before anything runs", "[process][runner]") {
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::never));
  ScratchDir scratch;
  RunRequest request = fake_request("ok_echo", scratch);
  request.limits.wall_seconds = 0;
  CHECK_THROWS_AS(runner.run(request), std::invalid_argument);

  request = fake_request("ok_echo", scratch);
  request.env["BAD=NAME"] = "x";
  CHECK_THROWS_AS(runner.run(request), std::invalid_argument);

  request = fake_request("ok_echo", scratch);
  request.view.read_only.push_back(scratch / "missing_dataset");
  CHECK_THROWS_WITH(runner.run(request),
                    Contains("view path does not exist") && Contains("missing_dataset"));
}
