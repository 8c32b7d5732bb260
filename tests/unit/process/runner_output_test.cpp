// stdout and stderr: captured up to output_bytes each, counted in full, and a
// flood past output_kill_bytes stops the program.
#include <catch2/catch.hpp>

#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::test;

TEST_CASE("stdout beyond output_bytes is truncated, flagged and counted", "[process][output]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("flood_stdout", scratch);
  request.args = {"200000"};
  request.limits.output_bytes = 64 * 1024;
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::ok);
  CHECK(result.stdout_text == std::string(64 * 1024, 'x'));
  CHECK(result.stdout_truncated);
  CHECK(result.stdout_bytes == 200000);
  CHECK_FALSE(result.stderr_truncated);
  CHECK(result.stderr_bytes == 0);
}

TEST_CASE("Output below output_bytes is kept whole and not flagged", "[process][output]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("flood_stdout", scratch);
  request.args = {"5000"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::ok);
  CHECK(result.stdout_text.size() == 5000);
  CHECK_FALSE(result.stdout_truncated);
  CHECK(result.stdout_bytes == 5000);
}

TEST_CASE("stderr is captured separately with its own cap", "[process][output]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("flood_stdout", scratch);
  request.args = {"100000", "stderr"};
  request.limits.output_bytes = 1000;
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::ok);
  CHECK(result.stdout_text.empty());
  CHECK_FALSE(result.stdout_truncated);
  CHECK(result.stderr_text == std::string(1000, 'x'));
  CHECK(result.stderr_truncated);
  CHECK(result.stderr_bytes == 100000);
}

TEST_CASE("Output past output_kill_bytes stops the program: output_limit", "[process][output]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  RunRequest request = fake_request("flood_stdout", scratch);
  request.args = {"forever"};
  request.limits.output_kill_bytes = 1 << 20;
  request.limits.wall_seconds = 10;
  auto start = std::chrono::steady_clock::now();
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::output_limit);
  CHECK(result.reason ==
        "output limit: the program wrote more than 1 MiB to stdout/stderr and was stopped");
  CHECK(result.stdout_bytes > (1u << 20));
  CHECK(result.stdout_truncated);
  CHECK(result.stdout_text.size() == request.limits.output_bytes);
  CHECK(seconds_since(start) < 5);  // stopped by the flood, not the wall limit
}
