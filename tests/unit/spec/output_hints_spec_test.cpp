// [outputs.NAME] in lab.toml: hints by mismatch kind, columns resolved per test.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "spec/lab_spec.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

const std::string kSpec = R"(
[lab]
id = "lab99"
title = "Test lab"
sources = ["a.cpp"]

[datasets.square]
generator = "matmul_pair"
seed = "fresh"
params = { m = 4, n = 6, k = 3 }

[[tests]]
name = "from dataset"
kind = "correctness"
points = 1
dataset = "square"
task = "tiled"

[[tests]]
name = "from test"
kind = "correctness"
points = 1
dataset = "square"
task = "tiled"
params = { n = 9 }

[outputs.c]
columns = "n"
hints = { edge = "check the last tile", any = "anything" }
[outputs.count]
columns = 5
)";

fs::path write_spec(const std::string& text) {
  static int n = 0;
  fs::path dir = fs::temp_directory_path() /
                 ("parlab-outputs-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
  fs::create_directories(dir);
  std::ofstream(dir / "lab.toml") << text;
  return dir / "lab.toml";
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

TEST_CASE("output hints reach every test's comparator, columns from params", "[spec]") {
  const LabSpec lab = load_lab_spec(write_spec(kSpec));
  REQUIRE(lab.outputs.size() == 2);
  const auto& first = lab.tests[0].compare.outputs;
  REQUIRE(first.count("c"));
  CHECK(first.at("c").columns == 6);  // the dataset's n
  CHECK(first.at("c").hints.at("edge") == "check the last tile");
  CHECK(first.at("count").columns == 5);
  CHECK(lab.tests[1].compare.outputs.at("c").columns == 9);  // the test's n wins
}

TEST_CASE("an unknown mismatch kind or a bad columns value is a spec error", "[spec]") {
  std::string bad_kind = kSpec;
  bad_kind.replace(bad_kind.find("edge ="), 4, "egde");
  CHECK_THAT(error_of(bad_kind), Catch::Contains("unknown mismatch kind 'egde'"));
  std::string bad_columns = kSpec;
  bad_columns.replace(bad_columns.find("columns = 5"), 11, "columns = -2");
  CHECK_THAT(error_of(bad_columns), Catch::Contains("columns must be a positive integer"));
}

TEST_CASE("an output's tasks keep its hints to those tasks' tests", "[spec]") {
  // Two tasks writing an output of the same name: the matrix hints only for "tiled".
  std::string spec = kSpec;
  spec.replace(spec.find("task = \"tiled\"\nparams"), 14, "task = \"naive\"");
  spec.replace(spec.find("[outputs.c]\n"), 12, "[outputs.c]\ntasks = [\"tiled\"]\n");
  const LabSpec lab = load_lab_spec(write_spec(spec));
  REQUIRE(lab.tests[1].task == "naive");
  CHECK(lab.tests[0].compare.outputs.at("c").hints.at("edge") == "check the last tile");
  CHECK(lab.tests[1].compare.outputs.count("c") == 0);
  CHECK(lab.tests[1].compare.outputs.count("count") == 1);  // no tasks: every test

  std::string typo = kSpec;
  typo.replace(typo.find("[outputs.c]\n"), 12, "[outputs.c]\ntasks = [\"tild\"]\n");
  CHECK_THAT(error_of(typo), Catch::Contains("output 'c': tasks names 'tild', which no test runs"));
}

TEST_CASE("[[outputs.NAME]] gives one output a feedback per group of tasks", "[spec]") {
  // lab02's y_hat: the CPU tasks' hints are about workers, the GPU task's about the grid.
  std::string spec = kSpec;
  spec.replace(spec.find("task = \"tiled\"\nparams"), 14, "task = \"naive\"");
  const std::string two = "[[outputs.c]]\ntasks = [\"tiled\"]\nhints = { any = \"tile hint\" }\n"
                          "[[outputs.c]]\ntasks = [\"naive\"]\ncolumns = 3\n"
                          "[outputs.c.hints]\nany = \"naive hint\"\n";
  const std::size_t at = spec.find("[outputs.c]\n");
  const std::size_t end = spec.find("[outputs.count]");
  std::string split = spec;
  split.replace(at, end - at, two);
  const LabSpec lab = load_lab_spec(write_spec(split));
  CHECK(lab.tests[0].compare.outputs.at("c").hints.at("any") == "tile hint");
  CHECK(lab.tests[1].compare.outputs.at("c").hints.at("any") == "naive hint");
  CHECK(lab.tests[1].compare.outputs.at("c").columns == 3);

  // An entry without tasks, or a task given two feedbacks, is refused with its place.
  std::string untasked = spec;
  untasked.replace(at, end - at, "[[outputs.c]]\ntasks = [\"tiled\"]\n[[outputs.c]]\ncolumns = 3\n");
  CHECK_THAT(error_of(untasked), Catch::Contains("each [[outputs.c]] entry needs `tasks`"));
  std::string twice = spec;
  twice.replace(at, end - at, "[[outputs.c]]\ntasks = [\"tiled\"]\n[[outputs.c]]\ntasks = [\"naive\", \"tiled\"]\n");
  CHECK_THAT(error_of(twice), Catch::Contains("output 'c': task 'tiled' already has its feedback at"));
}
