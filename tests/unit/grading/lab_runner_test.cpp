// What a child leaves in its run folder is hostile: every way of planting a file the
// grader should not read, or should not wait on, ends as a failed run with a reason.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "scratch_dir.hpp"
#include "fake_runner.hpp"
#include "grading/child_run_files.hpp"
#include "grading/lab_runner.hpp"
#include "parlab/harness/arrays.hpp"
#include "parlab/harness/timer.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::grader::testing::FakeRunner;

namespace {

// Removed with everything in it when the test process ends.
fs::path scratch(const std::string& name) {
  static const parlab::testing::ScratchDir root;
  fs::path dir = root / ("lab-runner-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path out_of(const RunRequest& r) { return r.work_dir / "out"; }

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

// What an honest driver leaves: outputs, timings, status.
void honest_child(const RunRequest& r) {
  parlab::harness::OutputWriter out(out_of(r));
  std::vector<double> values = {1, 2, 3};
  out.write("values", std::span<const double>(values));
  out.finish();
  parlab::harness::write_timings(out_of(r), 0, {0.25});
  write(out_of(r) / "status.json", R"({"status":"ok"})");
}

TaskInvocation invocation() {
  TaskInvocation inv;
  inv.executable = "/bin/true";
  inv.task = "t";
  inv.dataset_dir = "/tmp";
  return inv;
}

}  // namespace

TEST_CASE("an honest child's timings and outputs are read", "[lab_runner]") {
  FakeRunner fake;
  fake.act = honest_child;
  LabRunner runner(fake, scratch("honest"));
  TaskRun run = runner.run(invocation(), "a");
  REQUIRE(run.ok());
  CHECK(run.samples_s == std::vector<double>{0.25});
  CHECK(LabRunner::outputs(run).at(0).values.size() == 3);
}

TEST_CASE("a FIFO in place of timings.json fails the run without blocking", "[lab_runner]") {
  FakeRunner fake;
  fake.act = [](const RunRequest& r) {
    honest_child(r);
    fs::remove(out_of(r) / "timings.json");
    REQUIRE(::mkfifo((out_of(r) / "timings.json").c_str(), 0666) == 0);
  };
  LabRunner runner(fake, scratch("fifo"));
  TaskRun run = runner.run(invocation(), "a");  // would hang forever in open() before
  CHECK(run.run.outcome == RunOutcome::bad_output);
  CHECK(run.message.find("FIFO") != std::string::npos);
}

TEST_CASE("a FIFO in place of status.json of a failed run does not block", "[lab_runner]") {
  FakeRunner fake;
  fake.outcome = RunOutcome::nonzero_exit;
  fake.act = [](const RunRequest& r) {
    fs::create_directories(out_of(r));
    REQUIRE(::mkfifo((out_of(r) / "status.json").c_str(), 0666) == 0);
  };
  LabRunner runner(fake, scratch("fifo-status"));
  TaskRun run = runner.run(invocation(), "a");
  CHECK(run.run.outcome == RunOutcome::nonzero_exit);
  CHECK(run.message.find("exited with status 1") != std::string::npos);
}

TEST_CASE("a symlinked status.json is not followed into another file", "[lab_runner]") {
  fs::path secret = scratch("secret") / "secret.txt";
  write(secret, R"({"status":"error","message":"TOP SECRET"})");
  FakeRunner fake;
  fake.outcome = RunOutcome::nonzero_exit;
  fake.act = [&](const RunRequest& r) {
    fs::create_directories(out_of(r));
    fs::create_symlink(secret, out_of(r) / "status.json");
  };
  LabRunner runner(fake, scratch("link-status"));
  TaskRun run = runner.run(invocation(), "a");
  CHECK(run.message.find("TOP SECRET") == std::string::npos);
  CHECK(run.message.find("symbolic link") != std::string::npos);
}

TEST_CASE("a symlinked output folder is not read", "[lab_runner]") {
  // Another run's folder, complete with outputs and timings (a classmate's, say).
  fs::path other = scratch("other");
  RunRequest other_request;
  other_request.work_dir = other;
  honest_child(other_request);
  FakeRunner fake;
  fake.act = [&](const RunRequest& r) {
    fs::create_directories(r.work_dir);
    fs::create_symlink(other / "out", out_of(r));
  };
  LabRunner runner(fake, scratch("link-out"));
  TaskRun run = runner.run(invocation(), "a");
  CHECK(run.run.outcome == RunOutcome::bad_output);
  CHECK(run.message.find("symbolic link") != std::string::npos);
  CHECK_THROWS_AS(LabRunner::outputs(run), parlab::harness::OutputFormatError);
}

TEST_CASE("a symlinked array file is not read", "[lab_runner]") {
  fs::path elsewhere = scratch("elsewhere") / "values.bin";
  write(elsewhere, std::string(24, 'x'));
  FakeRunner fake;
  fake.act = [&](const RunRequest& r) {
    honest_child(r);
    fs::remove(out_of(r) / "values.bin");
    fs::create_symlink(elsewhere, out_of(r) / "values.bin");
  };
  LabRunner runner(fake, scratch("link-array"));
  TaskRun run = runner.run(invocation(), "a");
  REQUIRE(run.ok());
  CHECK_THROWS_WITH(LabRunner::outputs(run), Catch::Contains("not a regular file"));
}

TEST_CASE("a 300 MB timings.json is refused before it is read", "[lab_runner]") {
  FakeRunner fake;
  fake.act = [](const RunRequest& r) {
    honest_child(r);
    // Sparse: the size is what matters, the grader must not read it.
    REQUIRE(::truncate((out_of(r) / "timings.json").c_str(), 300ll << 20) == 0);
  };
  LabRunner runner(fake, scratch("huge"));
  TaskRun run = runner.run(invocation(), "a");
  CHECK(run.run.outcome == RunOutcome::bad_output);
  CHECK(run.message.find("over the limit") != std::string::npos);
}

TEST_CASE("malformed and empty timings fail the run with a precise reason", "[lab_runner]") {
  struct Case {
    const char* text;
    const char* reason;
  };
  for (const Case& c : {Case{R"({"samples_s": []})", "no samples"},
                        Case{R"({"samples_s": [-1]})", "invalid sample"},
                        Case{R"({"samples_s": ["fast"]})", "invalid sample"},
                        Case{R"({"samples_s": 3})", "no \"samples_s\" list"},
                        Case{R"({"samples_s": [0.1)", "not valid JSON"},
                        Case{R"([1,2])", "no \"samples_s\" list"}}) {
    FakeRunner fake;
    fake.act = [&](const RunRequest& r) {
      honest_child(r);
      write(out_of(r) / "timings.json", c.text);
    };
    LabRunner runner(fake, scratch("malformed"));
    TaskRun run = runner.run(invocation(), "a");
    INFO(c.text);
    CHECK(run.run.outcome == RunOutcome::bad_output);
    CHECK(run.message.find(c.reason) != std::string::npos);
  }
}

TEST_CASE("timings claiming more than the observed wall time are rejected", "[lab_runner]") {
  FakeRunner fake;
  fake.wall_seconds = 0.1;
  fake.act = [](const RunRequest& r) {
    honest_child(r);
    parlab::harness::write_timings(out_of(r), 0, {5.0});
  };
  LabRunner runner(fake, scratch("slow-claim"));
  TaskRun run = runner.run(invocation(), "a");
  CHECK(run.run.outcome == RunOutcome::bad_output);
}

TEST_CASE("a hard link planted as an output is not read", "[lab_runner]") {
  fs::path target = scratch("hardlink-target") / "values.bin";
  write(target, std::string(24, 'x'));
  FakeRunner fake;
  fake.act = [&](const RunRequest& r) {
    honest_child(r);
    fs::remove(out_of(r) / "values.bin");
    fs::create_hard_link(target, out_of(r) / "values.bin");
  };
  LabRunner runner(fake, scratch("hardlink"));
  TaskRun run = runner.run(invocation(), "a");
  REQUIRE(run.ok());
  CHECK_THROWS_AS(LabRunner::outputs(run), parlab::harness::OutputFormatError);
}
