// [sim] in lab.toml: the simulator's stand-in datasets, their errors, and the spec a
// grading in the simulator uses.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "scratch_dir.hpp"
#include "spec/dataset_stand_ins.hpp"
#include "spec/lab_spec.hpp"
#include "spec/lab_tracks.hpp"

using namespace parlab::grader;
using parlab::testing::ScratchDir;

namespace {

const char* kGpuLab = R"(
[lab]
id = "lab99"
title = "Test lab"
kind = "gpu"
sources = ["a.cu"]

[datasets.big]
generator = "sensor_logs"
seed = 1

[datasets.big_sim]
generator = "sensor_logs"
seed = 2

[datasets.fresh]
generator = "sensor_logs"
seed = "fresh"
hidden = true

[[tests]]
name = "gpu big"
kind = "correctness"
points = 10
dataset = "big"
task = "gpu"

[[tests]]
name = "cpu big"
kind = "correctness"
points = 10
device = "cpu"
dataset = "big"
task = "cpu"

[[tests]]
name = "gpu fresh"
kind = "correctness"
points = 10
visibility = "hidden"
dataset = "fresh"
task = "gpu"

[tracks.python]
sources = ["a.py"]
skeleton = "skeleton/python"
reference = "python"
)";

LabSpec load(const ScratchDir& dir, const std::string& lab, const std::string& sim) {
  std::ofstream(dir.path() / "lab.toml") << lab << sim;
  return load_lab_spec(dir.path() / "lab.toml");
}

std::string error_of(const std::string& lab, const std::string& sim) {
  ScratchDir dir;
  try {
    load(dir, lab, sim);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("[sim] datasets replace a GPU test's dataset in the simulator only", "[spec][stand-ins]") {
  ScratchDir dir;
  const LabSpec lab = load(dir, kGpuLab, "[sim]\ndatasets = { big = \"big_sim\" }\n");
  CHECK(lab.sim_datasets.at("big") == "big_sim");
  CHECK(lab.tests[0].dataset == "big");  // as loaded: a GPU reads the lab's own
  const LabSpec sim = for_simulator(lab);
  CHECK(sim.tests[0].dataset == "big_sim");
  CHECK(sim.tests[1].dataset == "big");    // a CPU test runs natively: never replaced
  CHECK(sim.tests[2].dataset == "fresh");  // not mapped
  CHECK(sim.tests[0].points == lab.tests[0].points);
}

TEST_CASE("the Python track keeps its own datasets in a simulator", "[spec][stand-ins]") {
  ScratchDir dir;
  const LabSpec lab = load(dir, kGpuLab, "[sim]\ndatasets = { big = \"big_sim\" }\n");
  const LabSpec python_sim = for_simulator(for_track(lab, Track::python));
  CHECK(python_sim.tests[0].dataset == "big");
}

TEST_CASE("a lab without [sim] is graded in the simulator as written", "[spec][stand-ins]") {
  ScratchDir dir;
  const LabSpec lab = load(dir, kGpuLab, "");
  CHECK(lab.sim_datasets.empty());
  CHECK(for_simulator(lab).tests[0].dataset == "big");
}

TEST_CASE("[sim] errors name what is wrong", "[spec][stand-ins]") {
  CHECK_THAT(error_of(kGpuLab, "[sim]\ndatasets = { big = \"nope\" }\n"),
             Catch::Contains("'nope' is not a dataset of this lab"));
  CHECK_THAT(error_of(kGpuLab, "[sim]\ndatasets = { nope = \"big_sim\" }\n"),
             Catch::Contains("'nope' is not a dataset of this lab"));
  CHECK_THAT(error_of(kGpuLab, "[sim]\ndatasets = { fresh = \"big_sim\" }\n"),
             Catch::Contains("'big_sim' must be hidden exactly when 'fresh' is"));
  CHECK_THAT(error_of(kGpuLab, "[sim]\ndatasets = { big_sim = \"big\" }\n"),
             Catch::Contains("no GPU test reads 'big_sim'"));
  CHECK_THAT(error_of(kGpuLab, "[sim]\ndataset = { big = \"big_sim\" }\n"),
             Catch::Contains("dataset"));
  std::string cpu_lab = kGpuLab;
  cpu_lab.replace(cpu_lab.find("kind = \"gpu\"\n"), 13, "");
  cpu_lab.replace(cpu_lab.find("[tracks.python]"), std::string::npos, "");
  for (const char* gpu_test : {"name = \"gpu big\"", "name = \"gpu fresh\""}) {
    const auto at = cpu_lab.find(gpu_test);
    cpu_lab.replace(cpu_lab.find("task = \"gpu\"", at), 12, "task = \"cpu\"");
  }
  CHECK_THAT(error_of(cpu_lab, "[sim]\ndatasets = { big = \"big_sim\" }\n"),
             Catch::Contains("[sim] is for a GPU lab"));
}
