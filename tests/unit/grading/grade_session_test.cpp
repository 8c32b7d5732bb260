// The grading session driven by a fake ProcessRunner (no compiler, no child process):
// whatever a submission's process does, the session ends with test results and a
// result.json, never an exception; and credit follows what the grader observed.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fake_runner.hpp"
#include "core/errors.hpp"
#include "grading/grade_session.hpp"
#include "parlab/harness/arrays.hpp"
#include "parlab/harness/timer.hpp"
#include "spec/lab_spec.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::grader::testing::FakeRunner;

namespace {

constexpr const char* kLabToml = R"(
[lab]
id = "labx"
title = "Fake lab"
kind = "cpu"
sources = ["solution.cpp"]

[limits]
wall_seconds = 5

[datasets.tiny]
generator = "sensor_logs"
seed = "fresh"
params = { files = 1, rows = 10 }

[[tests]]
name = "correct"
kind = "correctness"
points = 10
dataset = "tiny"
task = "fast"
compare = { kind = "tolerance", rtol = 1e-9, atol = 1e-9 }

[[tests]]
name = "faster than the reference"
kind = "performance"
points = 20
dataset = "tiny"
task = "fast"
compare = { kind = "tolerance", rtol = 1e-9, atol = 1e-9 }
[tests.performance]
baseline = "reference:slow"
full_at = 1.5
zero_at = 1.0
warmup_pairs = 0
min_pairs = 3
max_pairs = 3

[[tests]]
name = "faster than your own serial code"
kind = "performance"
points = 20
dataset = "tiny"
task = "fast"
compare = { kind = "tolerance", rtol = 1e-9, atol = 1e-9 }
[tests.performance]
baseline = "submission:slow"
full_at = 1.5
zero_at = 1.0
warmup_pairs = 0
min_pairs = 3
max_pairs = 3
)";

std::string arg_after(const RunRequest& r, const std::string& flag) {
  for (std::size_t i = 0; i + 1 < r.args.size(); ++i) {
    if (r.args[i] == flag) return r.args[i + 1];
  }
  return "";
}

// How one fake child behaves: what it reports and how long the grader sees it run.
struct Child {
  double reported_s = 0.1;  // per call, as the harness would report it
  double wall_s = 0.15;     // as the grader observes it
  bool crash = false;
  bool symlink_out = false;
  bool bad_manifest = false;
};

RunResult play(const RunRequest& r, const Child& c) {
  RunResult result;
  result.wall_seconds = c.wall_s;
  result.cpu_seconds = c.wall_s;
  if (c.crash) {
    result.outcome = RunOutcome::crashed;
    result.signal_name = "SIGSEGV";
    result.reason = "crashed (SIGSEGV)";
    return result;
  }
  const fs::path out = arg_after(r, "--out");
  if (c.symlink_out) {
    fs::create_directories(out.parent_path());
    fs::create_symlink("/etc", out);
  } else {
    parlab::harness::OutputWriter writer(out);
    std::vector<double> values = {1.5, 2.5};
    writer.write("values", std::span<const double>(values));
    writer.finish();
    parlab::harness::write_timings(out, 0, {c.reported_s});
    if (c.bad_manifest) std::ofstream(out / "manifest.json") << "{";
  }
  result.outcome = RunOutcome::ok;
  result.exit_code = 0;
  return result;
}

struct Fixture {
  fs::path root;
  Toolchain tc;
  LabSpec lab;
  GradeOptions options;
  FakeRunner runner;
  // Children by program and task: "reference:slow", "submission:fast", ...
  std::map<std::string, Child> children;
  int compiles = 0;

  explicit Fixture(const std::string& name) {
    root = fs::temp_directory_path() / ("parlab-session-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "lab");
    fs::create_directories(root / "submission");
    std::ofstream(root / "lab" / "lab.toml") << kLabToml;
    std::ofstream(root / "submission" / "solution.cpp") << "// nothing to see\n";
    lab = load_lab_spec(root / "lab" / "lab.toml");
    tc.cxx = "/bin/sh";  // never run: the fake plays the compiler
    tc.cxx_standard = "c++20";
    tc.build_dir = root;
    tc.harness_include = root;
    tc.harness_lib = root / "libharness.a";
    LabToolchain labtc;
    labtc.dir = root / "lab";
    labtc.reference_dir = root / "reference";
    labtc.driver_lib = root / "libdriver.a";
    labtc.reference_exe = root / "reference_exe";
    tc.labs["labx"] = labtc;
    for (const fs::path& input : {tc.harness_lib, labtc.driver_lib, labtc.reference_exe}) {
      std::ofstream(input) << "fake\n";
    }
    options.lab_id = "labx";
    options.submission_dir = root / "submission";
    options.work_root = root / "work";
    options.seed = 1;
    ::setenv("PARLAB_LOCK_DIR", (root / "locks").c_str(), 1);
    children["reference:fast"] = Child{};
    children["reference:slow"] = Child{0.2, 0.25};
    children["submission:fast"] = Child{0.1, 0.15};
    children["submission:slow"] = Child{0.2, 0.25};
    runner.respond = [this](const RunRequest& r) { return respond(r); };
  }
  ~Fixture() { fs::remove_all(root); }

  RunResult respond(const RunRequest& r) {
    if (r.executable == "/bin/sh") {  // the compile step: leave an executable
      ++compiles;
      std::ofstream(arg_after(r, "-o")) << "#!/bin/sh\n";
      RunResult ok;
      ok.outcome = RunOutcome::ok;
      ok.exit_code = 0;
      return ok;
    }
    const std::string program = r.executable == tc.labs.at("labx").reference_exe ? "reference"
                                                                                : "submission";
    return play(r, children.at(program + ":" + arg_after(r, "--task")));
  }

  GradeResult grade() { return grade_submission(options, lab, tc, runner); }
};

const TestResult& test_named(const GradeResult& r, const std::string& name) {
  for (const TestResult& t : r.tests) {
    if (t.name == name) return t;
  }
  FAIL("no test " << name);
  throw;
}

}  // namespace

TEST_CASE("session: an honest submission gets its points", "[session]") {
  Fixture f("honest");
  GradeResult r = f.grade();
  CHECK(test_named(r, "correct").status == TestStatus::passed);
  const TestResult& perf = test_named(r, "faster than the reference");
  CHECK(perf.status == TestStatus::passed);
  CHECK(perf.points == 20);
  REQUIRE(perf.measurement);
  CHECK(perf.measurement->timing_trusted);
  CHECK(r.score == 50);
  CHECK(r.interrupted.empty());
}

TEST_CASE("session: the grading's time is itemized by phase, within its total", "[session]") {
  Fixture f("honest");
  const GradeResult r = f.grade();
  const PhaseSeconds& p = r.phase_seconds;
  for (const double s : {p.setup, p.reference_runs, p.build, p.tests, p.checking_reruns, p.performance})
    CHECK(s >= 0);
  // The steps that ran took some time; the phases never sum past the whole grading.
  CHECK(p.reference_runs > 0);
  CHECK(p.build > 0);
  CHECK(p.tests > 0);
  CHECK(p.performance > 0);
  CHECK(p.sum() <= r.seconds);
}

TEST_CASE("session: --only runs the tests named and those they need, the rest are not graded",
          "[session]") {
  Fixture f("only");
  f.options.only = {"faster than the reference"};
  const GradeResult r = f.grade();
  CHECK(test_named(r, "correct").status == TestStatus::passed);  // its gate: run
  CHECK(test_named(r, "faster than the reference").status == TestStatus::passed);
  const TestResult& left_out = test_named(r, "faster than your own serial code");
  CHECK(left_out.status == TestStatus::not_graded);
  CHECK_THAT(left_out.message, Catch::Matchers::Contains("not selected (--only)"));
  CHECK(r.score == 30);
  CHECK(r.graded_max_score == 30);
  CHECK(exit_code_for(r) == 0);
  bool noted = false;
  for (const std::string& n : r.notes) noted |= n.find("only some tests graded (--only)") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("session: a constructor doing the work earns no performance points", "[session]") {
  Fixture f("constructor");
  // Reports a microsecond per call, but its process runs as long as the slow reference.
  f.children["submission:fast"] = Child{0.000001, 0.25};
  GradeResult r = f.grade();
  CHECK(test_named(r, "correct").status == TestStatus::passed);
  const TestResult& perf = test_named(r, "faster than the reference");
  CHECK(perf.points == 0);
  CHECK(perf.status == TestStatus::failed);
  CHECK(perf.message.find("timing not trusted") != std::string::npos);
}

TEST_CASE("session: a reference baseline that fails is inconclusive, not an error", "[session]") {
  Fixture f("baseline-crash");
  f.children["reference:slow"].crash = true;
  GradeResult r;
  REQUIRE_NOTHROW(r = f.grade());
  const TestResult& perf = test_named(r, "faster than the reference");
  CHECK(perf.status == TestStatus::inconclusive);
  CHECK(perf.points == 0);
  CHECK(perf.message.find("reference baseline") != std::string::npos);
  CHECK(fs::exists(f.options.work_root));  // result.json written below it
}

TEST_CASE("session: the student's own baseline failing is the student's failure", "[session]") {
  Fixture f("own-baseline");
  f.children["submission:slow"].crash = true;
  GradeResult r;
  REQUIRE_NOTHROW(r = f.grade());
  const TestResult& perf = test_named(r, "faster than your own serial code");
  CHECK(perf.status == TestStatus::failed);
  CHECK(perf.outcome == RunOutcome::crashed);
  CHECK(perf.message.find("baseline") != std::string::npos);
}

TEST_CASE("session: a symlinked output folder fails the test, nothing is read", "[session]") {
  Fixture f("symlink-out");
  f.children["submission:fast"].symlink_out = true;
  GradeResult r;
  REQUIRE_NOTHROW(r = f.grade());
  const TestResult& t = test_named(r, "correct");
  CHECK(t.status == TestStatus::failed);
  CHECK(t.message.find("symbolic link") != std::string::npos);
}

TEST_CASE("session: unreadable outputs after a performance run fail that test", "[session]") {
  Fixture f("bad-manifest");
  // Correct in the correctness test, then a broken manifest in the measured runs:
  // the same task, so break it only after the first run of the task.
  int fast_runs = 0;
  f.runner.respond = [&](const RunRequest& req) {
    if (req.executable != "/bin/sh" && req.executable != f.tc.labs.at("labx").reference_exe &&
        arg_after(req, "--task") == "fast" && ++fast_runs > 1) {
      Child broken = f.children["submission:fast"];
      broken.bad_manifest = true;
      return play(req, broken);
    }
    return f.respond(req);
  };
  GradeResult r;
  REQUIRE_NOTHROW(r = f.grade());
  CHECK(test_named(r, "correct").status == TestStatus::passed);
  const TestResult& perf = test_named(r, "faster than the reference");
  CHECK(perf.status == TestStatus::failed);
  CHECK(perf.message.find("unreadable output") != std::string::npos);
}

TEST_CASE("session: results are published after every step, and run folders removed", "[session]") {
  Fixture f("checkpoints");
  std::vector<std::size_t> seen;
  f.options.checkpoint = [&](const GradeResult& partial) { seen.push_back(partial.tests.size()); };
  GradeResult r = f.grade();
  REQUIRE(seen.size() >= 4);
  CHECK(seen.front() == 0);
  CHECK(seen.back() == 3);
  // This grading's folder is gone; only the build and result.json remain.
  for (const auto& lab_dir : fs::directory_iterator(f.options.work_root / "labx")) {
    CHECK(fs::is_empty(lab_dir.path() / "gradings"));
    CHECK(fs::exists(lab_dir.path() / "result.json"));
  }
}

TEST_CASE("session: a grading that measures nothing never waits for the exclusive lock",
          "[session]") {
  Fixture f("no-perf");
  f.options.performance = false;
  std::vector<std::string> notices;
  f.options.notice = [&](const std::string& line) { notices.push_back(line); };
  GradeResult r = f.grade();
  CHECK(test_named(r, "correct").status == TestStatus::passed);
  CHECK(test_named(r, "faster than the reference").status == TestStatus::not_graded);
  CHECK(test_named(r, "faster than the reference").message.find("not graded here") == 0);
  // What could not be graded here is left out of the graded total, not lost.
  CHECK(test_named(r, "faster than your own serial code").status == TestStatus::not_graded);
  CHECK(r.graded_max_score == test_named(r, "correct").max_points);
  CHECK(exit_code_for(r) == kExitAllPassed);
  CHECK(notices.empty());
}

TEST_CASE("session: exit codes put a failure first, then inconclusive, then no GPU",
          "[session]") {
  GradeResult r;
  r.build.ok = true;
  TestResult passed;
  passed.status = TestStatus::passed;
  TestResult inconclusive;
  inconclusive.status = TestStatus::inconclusive;
  TestResult failed;
  failed.status = TestStatus::failed;
  r.tests = {passed};
  CHECK(exit_code_for(r) == kExitAllPassed);
  r.tests = {passed, inconclusive};
  CHECK(exit_code_for(r) == kExitInconclusive);
  r.device.mode = DeviceMode::none;
  CHECK(exit_code_for(r) == kExitInconclusive);
  r.tests = {inconclusive, failed};
  CHECK(exit_code_for(r) == kExitSomeFailed);
}
