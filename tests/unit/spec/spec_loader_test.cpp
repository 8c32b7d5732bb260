#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "spec/lab_spec.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

const char* kValid = R"(
[lab]
id = "lab99"
title = "Test lab"
sources = ["a.cpp"]

[limits]
wall_seconds = 5

[datasets.small]
generator = "sensor_logs"
seed = 1
params = { files = 2, rows = 10 }

[datasets.fresh]
generator = "sensor_logs"
seed = "fresh"
hidden = true

[[tests]]
name = "small"
kind = "correctness"
points = 10
dataset = "small"
task = "serial"
compare = { kind = "ulp", max_ulp = 2, exact = ["count"] }

[[tests]]
name = "speed"
kind = "performance"
points = 5
dataset = "fresh"
visibility = "hidden"
task = "parallel"
params = { workers = "cores" }
[tests.performance]
baseline = "reference:serial"
scale_with_cores = true
full_at = 0.7
zero_at = 0.5
)";

fs::path write_spec(const std::string& text) {
  static int n = 0;
  fs::path dir = fs::temp_directory_path() / ("parlab-spec-test-" + std::to_string(::getpid()) +
                                              "-" + std::to_string(n++));
  fs::create_directories(dir);
  std::ofstream(dir / "lab.toml") << text;
  return dir / "lab.toml";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

std::string error_of(const std::string& text) {
  try {
    load_lab_spec(write_spec(text));
  } catch (const SpecError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a valid spec loads with every field", "[spec]") {
  LabSpec lab = load_lab_spec(write_spec(kValid));
  CHECK(lab.id == "lab99");
  CHECK(lab.kind == Device::cpu);
  CHECK(lab.max_points() == 15);
  REQUIRE(lab.tests.size() == 2);
  CHECK(lab.tests[0].compare.kind == ComparatorSpec::Kind::ulp);
  CHECK(lab.tests[0].compare.max_ulp == 2);
  CHECK(lab.tests[0].compare.exact_arrays == std::vector<std::string>{"count"});
  CHECK(lab.tests[0].limits.wall_seconds == 5);
  REQUIRE(lab.tests[1].performance);
  CHECK(lab.tests[1].performance->baseline_program == BaselineProgram::reference);
  CHECK(lab.tests[1].performance->baseline_task == "serial");
  CHECK(lab.tests[1].performance->scale_with_cores);
  CHECK(lab.tests[1].params.get_string("workers") == "cores");
  CHECK(lab.tests[1].warmup == 1);
  CHECK_FALSE(lab.dataset("fresh").seed.has_value());
  CHECK(lab.dataset("fresh").hidden);
  CHECK(lab.dataset("small").params.get_int("rows") == 10);
}

TEST_CASE("the shipped lab specs load", "[spec]") {
  auto labs = load_all_labs(fs::path(PARLAB_SOURCE_DIR) / "labs");
  REQUIRE_FALSE(labs.empty());
  CHECK(labs.front().id == "lab01");
  CHECK(labs.front().max_points() == 100);
}

TEST_CASE("a TOML syntax error names file, line and column", "[spec]") {
  std::string e = error_of("[lab]\nid = \"x\nbroken");
  CHECK_THAT(e, Catch::Contains("lab.toml:2:"));
}

TEST_CASE("spec errors name the key and its line", "[spec]") {
  CHECK_THAT(error_of(replace(kValid, "points = 10", "pointz = 10")),
             Catch::Contains("unknown key 'pointz'"));
  CHECK_THAT(error_of(replace(kValid, "points = 10", "pointz = 10")), Catch::Contains("lab.toml:23:10: test 'small'"));
  CHECK_THAT(error_of(replace(kValid, "points = 10\n", "")),
             Catch::Contains("test 'small': missing required key 'points'"));
  CHECK_THAT(error_of(replace(kValid, "kind = \"ulp\"", "kind = \"fuzzy\"")),
             Catch::Contains("comparator kind 'fuzzy' is not one of exact, tolerance, ulp"));
  CHECK_THAT(error_of(replace(kValid, "dataset = \"small\"", "dataset = \"big\"")),
             Catch::Contains("unknown dataset 'big'"));
  CHECK_THAT(error_of(replace(kValid, "seed = \"fresh\"", "seed = 7")),
             Catch::Contains("no dataset has seed = \"fresh\""));
  CHECK_THAT(error_of(replace(kValid, "visibility = \"hidden\"\n", "")),
             Catch::Contains("test 'speed' is visible but uses hidden dataset 'fresh'"));
  CHECK_THAT(error_of(replace(kValid, "name = \"speed\"", "name = \"small\"")),
             Catch::Contains("test name 'small' is used twice"));
  CHECK_THAT(error_of(replace(kValid, "reference:serial", "serial")),
             Catch::Contains("baseline must be 'reference:TASK'"));
  CHECK_THAT(error_of(replace(kValid, "zero_at = 0.5", "zero_at = 0.9")),
             Catch::Contains("need 0 < zero_at < full_at"));
  CHECK_THAT(error_of(replace(kValid, "points = 5", "points = -5")),
             Catch::Contains("points must be >= 0"));
  CHECK_THAT(error_of(replace(kValid, "wall_seconds = 5", "wall_seconds = \"5\"")),
             Catch::Contains("'wall_seconds' must be a number"));
  CHECK_THAT(error_of(replace(kValid, "[[tests]]\nname = \"speed\"\nkind = \"performance\"",
                              "[[tests]]\nname = \"speed\"\nkind = \"correctness\"")),
             Catch::Contains("only performance tests take a 'performance' table"));
}

TEST_CASE("performance tests declare parallelism, load bound and a serial task", "[spec]") {
  const std::string parallel = replace(
      kValid, "scale_with_cores = true\n",
      "parallel = \"processes\"\nmin_spread = 1.8\nmax_other_load = 0.5\nserial_task = "
      "\"serial\"\nmin_cores = 2\n");
  LabSpec lab = load_lab_spec(write_spec(parallel));
  const PerformanceSpec& p = *lab.tests[1].performance;
  CHECK(p.parallel == ParallelKind::processes);
  CHECK(p.min_spread == 1.8);
  CHECK(p.max_other_load == 0.5);
  CHECK(p.serial_task == "serial");
  CHECK(p.min_cores == 2);
  // Defaults: nothing required, the documented bounds.
  LabSpec plain = load_lab_spec(write_spec(kValid));
  CHECK(plain.tests[1].performance->parallel == ParallelKind::none);
  CHECK(plain.tests[1].performance->min_spread == 1.5);
  CHECK(plain.tests[1].performance->max_other_load == 0.35);
  CHECK_THAT(error_of(replace(parallel, "\"processes\"", "\"fibers\"")),
             Catch::Contains("'parallel': unknown parallel kind 'fibers' (expected one of: processes, threads)"));
  CHECK_THAT(error_of(replace(parallel, "min_spread = 1.8", "min_spread = 0.5")),
             Catch::Contains("min_spread must be >= 1"));
  CHECK_THAT(error_of(replace(parallel, "max_other_load = 0.5", "max_other_load = 0")),
             Catch::Contains("max_other_load must be > 0"));
  // The speedup over the submission's own 1-worker run.
  CHECK(plain.tests[1].performance->min_own_speedup == 1.25);
  CHECK(load_lab_spec(write_spec(replace(parallel, "min_spread = 1.8", "min_own_speedup = 1.4")))
            .tests[1].performance->min_own_speedup == 1.4);
  CHECK_THAT(error_of(replace(parallel, "min_spread = 1.8", "min_own_speedup = 0.9")),
             Catch::Contains("min_own_speedup must be >= 1"));
  // The share of the reference's own gain a gain test asks at most.
  CHECK(plain.tests[1].performance->reference_gain_share == 0.6);
  CHECK(load_lab_spec(write_spec(replace(parallel, "min_spread = 1.8", "reference_gain_share = 0.8")))
            .tests[1].performance->reference_gain_share == 0.8);
  CHECK_THAT(error_of(replace(parallel, "min_spread = 1.8", "reference_gain_share = 1.5")),
             Catch::Contains("reference_gain_share must be in (0, 1]"));
  CHECK_THAT(error_of(replace(parallel, "min_spread = 1.8", "reference_gain_share = 0")),
             Catch::Contains("reference_gain_share must be in (0, 1]"));
}

TEST_CASE("the shipped labs' parallel tests need 2 cores and say how to be parallel", "[spec]") {
  for (const LabSpec& lab : load_all_labs(fs::path(PARLAB_SOURCE_DIR) / "labs")) {
    for (const TestSpec& t : lab.tests) {
      if (!t.performance || t.performance->parallel == ParallelKind::none) continue;
      INFO(lab.id << ": " << t.name);
      CHECK(t.performance->min_cores >= 2);
      // Same shape: a parallel test is never measured against a serial baseline.
      CHECK_FALSE(t.performance->scale_with_cores);
    }
  }
  const LabSpec lab01 = load_all_labs(fs::path(PARLAB_SOURCE_DIR) / "labs").front();
  int parallel_tests = 0;
  for (const TestSpec& t : lab01.tests) {
    if (t.performance && t.performance->parallel == ParallelKind::processes) ++parallel_tests;
  }
  CHECK(parallel_tests == 2);  // lab01 asks for processes on both of its speed tests
}

TEST_CASE("a missing spec file is a spec error", "[spec]") {
  CHECK_THROWS_AS(load_lab_spec("/nonexistent/lab.toml"), SpecError);
}

TEST_CASE("GPU labs: cpu_reference baselines and roofline tables", "[spec]") {
  const std::string gpu = replace(kValid, "sources = [\"a.cpp\"]", "kind = \"gpu\"\nsources = [\"a.cu\"]");
  const std::string with_roofline = replace(
      replace(gpu, "reference:serial", "cpu_reference:serial"), "zero_at = 0.5",
      "zero_at = 0.5\n[tests.roofline]\nbound = \"memory\"\nhint_below = 0.6\nhint = \"coalesce\"");
  LabSpec lab = load_lab_spec(write_spec(with_roofline));
  CHECK(lab.kind == Device::gpu);
  REQUIRE(lab.tests[1].performance);
  CHECK(lab.tests[1].performance->baseline_program == BaselineProgram::cpu_reference);
  REQUIRE(lab.tests[1].roofline);
  CHECK(lab.tests[1].roofline->bound == RooflineBound::memory);
  CHECK(lab.tests[1].roofline->hint_below == 0.6);
  CHECK(lab.tests[1].roofline->hint == "coalesce");

  CHECK_THAT(error_of(replace(with_roofline, "bound = \"memory\"", "bound = \"disk\"")),
             Catch::Contains("'bound': unknown roofline bound 'disk' (expected one of: memory, compute)"));
  CHECK_THAT(error_of(replace(with_roofline, "hint_below = 0.6", "hint_below = 2")),
             Catch::Contains("hint_below is a fraction"));
  CHECK_THAT(error_of(replace(with_roofline, "hint = \"coalesce\"", "hnt = \"coalesce\"")),
             Catch::Contains("unknown key 'hnt'"));
  // A CPU lab has no CPU-reference program and no measured device peaks.
  CHECK_THAT(error_of(replace(kValid, "reference:serial", "cpu_reference:serial")),
             Catch::Contains("exists only in GPU labs"));
  const std::string cpu_roofline =
      replace(kValid, "zero_at = 0.5", "zero_at = 0.5\n[tests.roofline]\nbound = \"memory\"");
  CHECK_THAT(error_of(cpu_roofline), Catch::Contains("a roofline table needs a GPU test"));
}

TEST_CASE("each test runs on a device: gpu by default in GPU labs and cpu in CPU labs", "[spec]") {
  const LabSpec cpu_lab = load_lab_spec(write_spec(kValid));
  CHECK(cpu_lab.tests[0].device == Device::cpu);
  CHECK(cpu_lab.tests[1].device == Device::cpu);

  const std::string gpu = replace(kValid, "sources = [\"a.cpp\"]", "kind = \"gpu\"\nsources = [\"a.cu\"]");
  const LabSpec gpu_lab = load_lab_spec(write_spec(gpu));
  CHECK(gpu_lab.tests[0].device == Device::gpu);
  CHECK(gpu_lab.tests[1].device == Device::gpu);

  // A threaded host task inside a GPU lab (lab02's CPU half).
  const std::string mixed = replace(gpu, "task = \"parallel\"", "task = \"parallel\"\ndevice = \"cpu\"");
  const LabSpec mixed_lab = load_lab_spec(write_spec(mixed));
  CHECK(mixed_lab.tests[0].device == Device::gpu);
  CHECK(mixed_lab.tests[1].device == Device::cpu);

  CHECK_THAT(error_of(replace(gpu, "task = \"parallel\"", "task = \"parallel\"\ndevice = \"tpu\"")),
             Catch::Contains("test 'speed': 'device': unknown device 'tpu' (expected one of: cpu, gpu)"));
  CHECK_THAT(error_of(replace(kValid, "task = \"parallel\"", "task = \"parallel\"\ndevice = \"gpu\"")),
             Catch::Contains("needs a GPU lab"));
  // Device peaks mean nothing for a CPU task.
  const std::string cpu_test_roofline =
      replace(mixed, "zero_at = 0.5", "zero_at = 0.5\n[tests.roofline]\nbound = \"memory\"");
  CHECK_THAT(error_of(cpu_test_roofline), Catch::Contains("a roofline table needs a GPU test"));
}

TEST_CASE("gpu_alone: a GPU correctness test that needs its GPU to itself", "[spec]") {
  const std::string gpu = replace(kValid, "sources = [\"a.cpp\"]", "kind = \"gpu\"\nsources = [\"a.cu\"]");
  CHECK_FALSE(load_lab_spec(write_spec(gpu)).tests[0].gpu_alone);
  const std::string alone = replace(gpu, "task = \"serial\"", "task = \"serial\"\ngpu_alone = true");
  CHECK(load_lab_spec(write_spec(alone)).tests[0].gpu_alone);
  // A performance test runs alone on its GPU anyway; a CPU test has no GPU to keep.
  CHECK_THAT(error_of(replace(gpu, "task = \"parallel\"", "task = \"parallel\"\ngpu_alone = true")),
             Catch::Contains("test 'speed': gpu_alone is for GPU correctness tests"));
  CHECK_THAT(error_of(replace(kValid, "task = \"serial\"", "task = \"serial\"\ngpu_alone = true")),
             Catch::Contains("gpu_alone is for GPU correctness tests"));
  CHECK_THAT(error_of(replace(gpu, "task = \"serial\"", "task = \"serial\"\ngpu_alone = \"yes\"")),
             Catch::Contains("gpu_alone"));
  // lab02's device budget takes all free device memory but 16 MB while it runs.
  for (const LabSpec& lab : load_all_labs(fs::path(PARLAB_SOURCE_DIR) / "labs")) {
    for (const TestSpec& t : lab.tests) {
      if (t.params.has("budget_mb") && t.device == Device::gpu) {
        INFO(lab.id << ": " << t.name);
        CHECK(t.gpu_alone);
      }
    }
  }
}

TEST_CASE("a GPU performance test's sim-mode substitute ([tests.sim])", "[spec]") {
  const std::string gpu = replace(kValid, "sources = [\"a.cpp\"]", "kind = \"gpu\"\nsources = [\"a.cu\"]");
  const std::string with_sim = replace(
      gpu, "zero_at = 0.5",
      "zero_at = 0.5\n[tests.sim]\ncounter = \"global_bytes_per_output\"\ndataset = \"small\"\n"
      "full_at = 1.5\nzero_at = 4\nhint = \"coalesce\"");
  LabSpec lab = load_lab_spec(write_spec(with_sim));
  REQUIRE(lab.tests[1].sim_check);
  CHECK(lab.tests[1].sim_check->counter == SimCounter::global_bytes_per_output);
  CHECK(lab.tests[1].sim_check->dataset == "small");
  CHECK(lab.tests[1].sim_check->full_at == 1.5);
  CHECK(lab.tests[1].sim_check->zero_at == 4);
  CHECK(lab.tests[1].sim_check->hint == "coalesce");
  CHECK_FALSE(lab.tests[0].sim_check);

  CHECK_THAT(error_of(replace(with_sim, "global_bytes_per_output", "cache_hits")),
             Catch::Contains("'counter': unknown counter 'cache_hits' (expected one of: "
                             "global_bytes_per_output, global_loads_per_output, "
                             "shared_passes_per_output)"));
  // The per-request averages are no longer scored (padding improved them).
  CHECK_THAT(error_of(replace(with_sim, "global_bytes_per_output", "global_loads_per_store")),
             Catch::Contains("unknown counter 'global_loads_per_store'"));
  CHECK_THAT(error_of(replace(with_sim, "zero_at = 4", "zero_at = 1")),
             Catch::Contains("need 0 < full_at < zero_at"));
  CHECK_THAT(error_of(replace(with_sim, "dataset = \"small\"\nfull_at", "dataset = \"tiny\"\nfull_at")),
             Catch::Contains("unknown dataset 'tiny'"));
  // Only a GPU performance test has a measurement to stand in for.
  const std::string cpu_sim = replace(
      kValid, "zero_at = 0.5",
      "zero_at = 0.5\n[tests.sim]\ncounter = \"global_loads_per_output\"\ndataset = \"small\"");
  CHECK_THAT(error_of(cpu_sim), Catch::Contains("only GPU performance tests take a 'sim' table"));
}

TEST_CASE("a word outside the lab vocabulary fails the load naming file, key and the words",
          "[spec]") {
  const std::string at = "lab\\.toml:[0-9]+:[0-9]+: ";
  CHECK_THAT(error_of(replace(kValid, "kind = \"correctness\"", "kind = \"speed\"")),
             Catch::Matches(".*" + at + "test 'small': 'kind': unknown test kind 'speed' "
                            "\\(expected one of: correctness, performance\\)"));
  CHECK_THAT(error_of(replace(kValid, "sources = [\"a.cpp\"]", "kind = \"fpga\"\nsources = [\"a.cpp\"]")),
             Catch::Matches(".*" + at + "\\[lab\\]: 'kind': unknown device 'fpga' "
                            "\\(expected one of: cpu, gpu\\)"));
  CHECK_THAT(error_of(replace(kValid, "reference:serial", "oracle:serial")),
             Catch::Matches(".*" + at + ".*'baseline': unknown baseline program 'oracle' "
                            "\\(expected one of: reference, cpu_reference, submission\\)"));
  CHECK_THAT(error_of(replace(kValid, "visibility = \"hidden\"", "visibility = \"secret\"")),
             Catch::Matches(".*" + at + "test 'speed': 'visibility': unknown visibility 'secret' "
                            "\\(expected one of: visible, hidden\\)"));
}
