// The compute-sanitizer pass of GPU correctness tests, without a GPU: a FakeRunner
// plays compute-sanitizer (its exit code, its report). What a real GPU shows is owed
// (docs/gpu.md, "Correctness under compute-sanitizer").
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "scratch_dir.hpp"
#include "fake_runner.hpp"
#include "grading/gpu_sanitizer.hpp"
#include "parlab/harness/arrays.hpp"
#include "parlab/harness/sanitizer_param.hpp"
#include "parlab/harness/timer.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::grader::testing::FakeRunner;

namespace {

// Removed with everything in it when the test process ends.
fs::path scratch(const std::string& name) {
  static const parlab::testing::ScratchDir root;
  fs::path dir = root / ("gpu-sanitizer-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A clean run: what the driver leaves, and exit 0.
RunResult clean_run(const RunRequest& r) {
  const fs::path out = r.work_dir / "out";
  parlab::harness::OutputWriter w(out);
  std::vector<double> v = {1};
  w.write("c", std::span<const double>(v));
  w.finish();
  parlab::harness::write_timings(out, 0, {0.001});
  std::ofstream(out / "status.json") << R"({"status":"ok"})";
  RunResult res;
  res.outcome = RunOutcome::ok;
  res.exit_code = 0;
  res.wall_seconds = 1;
  return res;
}

TaskInvocation invocation() {
  TaskInvocation inv;
  inv.executable = "/grading/build/lab05_submission";
  inv.task = "tiled";
  inv.dataset_dir = "/tmp";
  inv.limits.wall_seconds = 10;
  return inv;
}

TestResult passed() {
  TestResult r;
  r.status = TestStatus::passed;
  r.points = 5;
  r.message = "all outputs match";
  return r;
}

}  // namespace

TEST_CASE("every tool runs the program under it, with a longer limit, and a clean run keeps the pass") {
  FakeRunner fake;
  std::vector<RunRequest> seen;
  fake.respond = [&](const RunRequest& r) {
    seen.push_back(r);
    return clean_run(r);
  };
  LabRunner runner(fake, scratch("clean"));
  TestResult r = passed();
  const SanitizerVerdict clean = check_under_sanitizer(r, invocation(), runner, "/usr/local/cuda/bin/compute-sanitizer", "tiled-1");
  CHECK(clean.tool.empty());
  CHECK_FALSE(clean.race.has_value());
  CHECK(r.status == TestStatus::passed);
  CHECK(r.points == 5);
  REQUIRE(seen.size() == sanitizer_tools().size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    CHECK(seen[i].executable == "/usr/local/cuda/bin/compute-sanitizer");
    REQUIRE(seen[i].args.size() > 12);
    CHECK(seen[i].args[0] == "--tool");
    CHECK(seen[i].args[1] == sanitizer_tools()[i]);
    CHECK(seen[i].args[2] == "--error-exitcode");
    CHECK(seen[i].args[3] == std::to_string(kSanitizerErrorExit));
    // The program and its own arguments follow the tool's.
    const auto program = std::find(seen[i].args.begin(), seen[i].args.end(), "/grading/build/lab05_submission");
    REQUIRE(program != seen[i].args.end());
    CHECK(*(program + 1) == "--task");
    // The driver is told it runs under the tool (lab02 then places no memory ballast).
    const std::string told = std::string(parlab::harness::kUnderSanitizerParam) + "=" + sanitizer_tools()[i];
    const auto param = std::find(seen[i].args.begin(), seen[i].args.end(), told);
    REQUIRE(param != seen[i].args.end());
    CHECK(*(param - 1) == "--param");
    CHECK(seen[i].limits.wall_seconds == 10 * kSanitizerSlowdown);
    // The tool's folder is visible in the sandbox.
    CHECK(std::find(seen[i].view.read_only.begin(), seen[i].view.read_only.end(),
                    fs::path("/usr/local/cuda/bin")) != seen[i].view.read_only.end());
  }
}

TEST_CASE("a finding fails the test in the simulator's words, and later tools do not run") {
  FakeRunner fake;
  int runs = 0;
  fake.respond = [&](const RunRequest& r) {
    ++runs;
    if (r.args[1] == "memcheck") return clean_run(r);
    RunResult res;
    res.outcome = RunOutcome::nonzero_exit;
    res.exit_code = kSanitizerErrorExit;
    res.stdout_text =
        "========= COMPUTE-SANITIZER\n"
        "========= Error: Race reported between Write access at matmul_tiled(const float *, const float *, "
        "float *, int, int, int)+0x2c0 in /stage/matmul.cu:31\n"
        "=========     and Read access at matmul_tiled(const float *, const float *, float *, int, int, "
        "int)+0x350 in /stage/matmul.cu:36 [2048 hazards]\n"
        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    return res;
  };
  LabRunner runner(fake, scratch("race"));
  TestResult r = passed();
  const SanitizerVerdict verdict = check_under_sanitizer(r, invocation(), runner, "/cuda/bin/compute-sanitizer", "tiled-2");
  CHECK(runs == 2);
  // racecheck decided: the race is the task's (grading/task_races), summed up in its first line.
  CHECK(verdict.tool == "racecheck");
  REQUIRE(verdict.race.has_value());
  CHECK(verdict.race->checker == "compute-sanitizer racecheck");
  CHECK_THAT(verdict.race->summary, Catch::StartsWith("data race on shared memory in kernel matmul_tiled("));
  CHECK(verdict.race->summary.find('\n') == std::string::npos);
  CHECK_THAT(verdict.race->message, Catch::Contains("a write at matmul.cu:31 and a read at matmul.cu:36"));
  CHECK(r.status == TestStatus::failed);
  CHECK(r.points == 0);
  CHECK_THAT(r.message, Catch::StartsWith("right results, but data race on shared memory in kernel matmul_tiled("));
  CHECK_THAT(r.message, Catch::Contains("a write at matmul.cu:31 and a read at matmul.cu:36"));
}

TEST_CASE("the verdict is the tool's exit code, not the text the program can write") {
  FakeRunner fake;
  // A program that prints a fake clean summary, while the tool exits with its error code.
  fake.respond = [&](const RunRequest&) {
    RunResult res;
    res.outcome = RunOutcome::nonzero_exit;
    res.exit_code = kSanitizerErrorExit;
    res.stdout_text = "========= ERROR SUMMARY: 0 errors\n";
    res.stdout_truncated = true;
    return res;
  };
  LabRunner runner(fake, scratch("forged"));
  TestResult r = passed();
  const SanitizerVerdict memcheck = check_under_sanitizer(r, invocation(), runner, "/cuda/bin/compute-sanitizer", "t");
  CHECK(memcheck.tool == "memcheck");
  CHECK_FALSE(memcheck.race.has_value());  // not a race: the task's other tests keep theirs
  CHECK(r.status == TestStatus::failed);
  CHECK_THAT(r.message, Catch::Contains("compute-sanitizer memcheck found errors"));
  CHECK_THAT(r.message, Catch::Contains("its report was cut"));

  // The program killed under the tool (or killing it) fails as well.
  fake.respond = [&](const RunRequest&) {
    RunResult res;
    res.outcome = RunOutcome::crashed;
    res.signal = 9;
    res.reason = "killed by SIGKILL";
    return res;
  };
  TestResult k = passed();
  CHECK_FALSE(check_under_sanitizer(k, invocation(), runner, "/cuda/bin/compute-sanitizer", "t2").race.has_value());
  CHECK(k.status == TestStatus::failed);
  CHECK_THAT(k.message, Catch::Contains("did not finish cleanly"));
}
