// Which sandbox a runner uses: bubblewrap when it works, rlimits only otherwise
// (with the reason kept for the report), and an error when it was required.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::test;
using Catch::Contains;

namespace {

// A stand-in for bwrap: a shell script with the given body.
std::filesystem::path fake_bwrap(const ScratchDir& scratch, const std::string& body) {
  std::filesystem::path script = scratch / "bwrap";
  std::ofstream(script) << "#!/bin/sh\n" << body << "\n";
  ::chmod(script.c_str(), 0755);
  return script;
}

}  // namespace

TEST_CASE("Turned off, the runner is 'rlimits only' with no problem to report",
          "[process][sandbox]") {
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::never));
  CHECK(runner.sandbox_name() == "rlimits only");
  CHECK(runner.bubblewrap_problem().empty());
}

TEST_CASE("Without bubblewrap installed the runner falls back to rlimits only",
          "[process][sandbox]") {
  SandboxOptions options = options_with(SandboxOptions::Bubblewrap::if_available);
  options.bubblewrap_path = "/nonexistent/bin/bwrap";
  SandboxedRunner runner(options);
  CHECK(runner.sandbox_name() == "rlimits only");
  CHECK_THAT(runner.bubblewrap_problem(),
             Contains("not installed") && Contains("/nonexistent/bin/bwrap"));

  ScratchDir scratch;
  CHECK(runner.run(fake_request("ok_echo", scratch)).outcome == RunOutcome::ok);
}

TEST_CASE("A bubblewrap that fails its probe is not used, and says why", "[process][sandbox]") {
  ScratchDir scratch;
  SandboxOptions options = options_with(SandboxOptions::Bubblewrap::if_available);
  options.bubblewrap_path = fake_bwrap(
      scratch, "echo 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1");
  SandboxedRunner runner(options);
  CHECK(runner.sandbox_name() == "rlimits only");
  CHECK_THAT(runner.bubblewrap_problem(), Contains("Creating new namespace failed"));
}

TEST_CASE("Requiring bubblewrap where it does not work is a tool error", "[process][sandbox]") {
  SandboxOptions options = options_with(SandboxOptions::Bubblewrap::required);
  options.bubblewrap_path = "/nonexistent/bin/bwrap";
  CHECK_THROWS_AS(SandboxedRunner(options), std::runtime_error);
  CHECK_THROWS_WITH(SandboxedRunner(options), Contains("bubblewrap was required"));
}

TEST_CASE("A sandbox that never starts the program is a tool error, not an outcome",
          "[process][sandbox]") {
  // Passes the probe (exits 0) but never reports a started child on its status fd.
  ScratchDir scratch;
  SandboxOptions options = options_with(SandboxOptions::Bubblewrap::required);
  options.bubblewrap_path = fake_bwrap(scratch, "echo 'bwrap: pretend setup failure' >&2\nexit 0");
  SandboxedRunner runner(options);
  REQUIRE(runner.sandbox_name() == "bubblewrap");
  CHECK_THROWS_WITH(
      runner.run(fake_request("ok_echo", scratch)),
      Contains("bubblewrap could not set up the sandbox") && Contains("pretend setup failure"));
}

TEST_CASE("The factory makes a SandboxedRunner behind the ProcessRunner interface",
          "[process][sandbox]") {
  std::unique_ptr<ProcessRunner> runner =
      make_sandboxed_runner(options_with(SandboxOptions::Bubblewrap::if_available));
  CHECK(runner->sandbox_name() == (bubblewrap_works_here() ? "bubblewrap" : "rlimits only"));
  ScratchDir scratch;
  CHECK(runner->run(fake_request("ok_echo", scratch)).outcome == RunOutcome::ok);
}

TEST_CASE("Bubblewrap modes parse from auto/on/off", "[process][sandbox]") {
  CHECK(bubblewrap_mode_from_string("auto") == SandboxOptions::Bubblewrap::if_available);
  CHECK(bubblewrap_mode_from_string("on") == SandboxOptions::Bubblewrap::required);
  CHECK(bubblewrap_mode_from_string("off") == SandboxOptions::Bubblewrap::never);
  CHECK_THROWS_AS(bubblewrap_mode_from_string("maybe"), std::invalid_argument);
}
