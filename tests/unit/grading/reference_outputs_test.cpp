// The reference-runs step's cache: each (program, dataset, task, params) run once, its
// outputs kept in memory and its folder gone; a failing reference is the lab's fault.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "fake_runner.hpp"
#include "grading/reference_outputs.hpp"
#include "parlab/harness/arrays.hpp"
#include "parlab/harness/timer.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using Catch::Matchers::Contains;
using parlab::grader::testing::FakeRunner;

namespace {

void reference_child(const RunRequest& r) {
  const fs::path out = r.work_dir / "out";
  parlab::harness::OutputWriter writer(out);
  std::vector<double> values = {1, 2, 3};
  writer.write("values", std::span<const double>(values));
  writer.finish();
  parlab::harness::write_timings(out, 0, {0.25});
  std::ofstream(out / "status.json") << R"({"status":"ok"})";
}

TaskInvocation invocation(const fs::path& exe, const std::string& task) {
  TaskInvocation inv;
  inv.executable = exe;
  inv.task = task;
  inv.dataset_dir = "/tmp";
  inv.limits.wall_seconds = 5;
  return inv;
}

}  // namespace

TEST_CASE("reference outputs: run once per task and parameters, kept in memory",
          "[grading][steps]") {
  const parlab::testing::ScratchDir scratch;  // removed even when a check fails
  const fs::path dir = scratch.path();
  std::ofstream(dir / "reference") << "fake\n";
  FakeRunner fake;
  double wall_limit = 0;
  fake.act = [&](const RunRequest& r) {
    wall_limit = r.limits.wall_seconds;
    reference_child(r);
  };
  LabRunner runs(fake, dir / "runs");
  ReferenceOutputs reference(runs);
  const ExpectedOutputs& first = reference.get(invocation(dir / "reference", "sum"), "tiny");
  CHECK(first.outputs.at(0).values.size() == 3);
  CHECK(wall_limit == 20);  // 4x: a slow reference is the lab's problem, not the student's
  CHECK_FALSE(fs::exists(first.run.runs_root / first.run.run_name));  // nothing left to find
  reference.get(invocation(dir / "reference", "sum"), "tiny");
  CHECK(fake.runs == 1);
  TaskInvocation other = invocation(dir / "reference", "sum");
  other.params.set("workers", "2");
  reference.get(other, "tiny");
  reference.get(invocation(dir / "reference", "max"), "tiny");
  CHECK(fake.runs == 3);
}

TEST_CASE("reference outputs: a failing reference is an environment error naming the data",
          "[grading][steps]") {
  const parlab::testing::ScratchDir scratch;
  const fs::path dir = scratch.path();
  std::ofstream(dir / "reference") << "fake\n";
  FakeRunner fake;
  fake.outcome = RunOutcome::crashed;
  LabRunner runs(fake, dir / "runs");
  ReferenceOutputs reference(runs);
  CHECK_THROWS_AS(reference.get(invocation(dir / "reference", "sum"), "tiny"), EnvironmentError);
  CHECK_THROWS_WITH(reference.get(invocation(dir / "reference", "sum"), "tiny"),
                    Contains("dataset 'tiny' task 'sum'") && Contains("not the submission"));
}
