// A sim program's code places (grading/code_places): worked out once per program, before
// its first run, and handed to each of its runs in the settings; a tool answer that is no
// table is dropped, never passed on.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <vector>

#include "fake_runner.hpp"
#include "grading/code_places.hpp"
#include "grading/lab_runner.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::grader::testing::FakeRunner;

namespace {

// Plays the tool (its answer: `table`) and the program (its settings kept in `settings`).
struct ToolAndProgram {
  fs::path tool = "/opt/parlab/parlab-sim-code-places";
  std::string table = "7b3c,-,/stage/kernels.cu:12;10-200,-,";
  int tool_runs = 0;
  std::vector<std::string> settings;
  std::vector<std::string> tool_arguments;

  RunResult operator()(const RunRequest& request) {
    RunResult r;
    r.outcome = RunOutcome::ok;
    if (request.executable == tool) {
      ++tool_runs;
      tool_arguments = request.args;
      r.stdout_text = table;
    } else {
      settings.push_back(request.simulator_settings);
    }
    return r;
  }
};

TaskInvocation sim_run(const fs::path& program) {
  TaskInvocation inv;
  inv.executable = program;
  inv.task = "t";
  inv.dataset_dir = "/tmp";
  return inv;
}

}  // namespace

TEST_CASE("a sim program's code places are worked out once and given to each of its runs",
          "[code_places]") {
  const parlab::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  const fs::path program = dir / "bin" / "lab_sim";
  fs::create_directories(program.parent_path());
  std::ofstream(program) << "not really a program";
  ToolAndProgram play;
  FakeRunner fake;
  fake.respond = [&](const RunRequest& r) { return play(r); };
  LabRunner runner(fake, dir / "runs");
  runner.set_code_places_tool(play.tool);
  runner.set_extra_env({{"PARLAB_SIM_RACE_CHECK", "1"}});
  runner.run(sim_run(program), "a");
  runner.run(sim_run(program), "b");
  CHECK(play.tool_runs == 1);
  CHECK(play.tool_arguments == std::vector<std::string>{program.string()});
  REQUIRE(play.settings.size() == 2);
  for (const std::string& settings : play.settings) {
    CHECK(settings.find("PARLAB_SIM_RACE_CHECK=1\n") != std::string::npos);
    CHECK(settings.find(std::string(kCodePlacesSetting) + "=" + play.table + "\n") != std::string::npos);
  }
  // Rebuilt at the same path: another program, another table.
  std::ofstream(program) << "a program built again, of another size";
  runner.run(sim_run(program), "c");
  CHECK(play.tool_runs == 2);
}

TEST_CASE("a tool answer that is no table, and a run without simulator settings, get no code places",
          "[code_places]") {
  const parlab::testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  const fs::path program = dir / "lab_sim";
  std::ofstream(program) << "x";
  ToolAndProgram play;
  FakeRunner fake;
  fake.respond = [&](const RunRequest& r) { return play(r); };
  SECTION("a line break would start a setting of its own") {
    play.table = "7b3c,-,a.cu:1\nPARLAB_SIM_RACE_CHECK=0";
    LabRunner runner(fake, dir / "runs");
    runner.set_code_places_tool(play.tool);
    runner.set_extra_env({{"PARLAB_SIM_RACE_CHECK", "1"}});
    runner.run(sim_run(program), "a");
    REQUIRE(play.settings.size() == 1);
    CHECK(play.settings[0] == "PARLAB_SIM_RACE_CHECK=1\n");
  }
  SECTION("an answer past the cap") {
    play.table = std::string(kMaxCodePlacesBytes + 1, 'a');
    CHECK_FALSE(code_places_of(fake, play.tool, program, dir / "work"));
  }
  SECTION("a native run") {
    LabRunner runner(fake, dir / "runs");
    runner.set_code_places_tool(play.tool);
    runner.run(sim_run(program), "a");
    CHECK(play.tool_runs == 0);
    REQUIRE(play.settings.size() == 1);
    CHECK(play.settings[0].empty());
  }
}
