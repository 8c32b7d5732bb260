// [tracks.NAME] in lab.toml: the tracks read, their errors, and the spec of one track.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "scratch_dir.hpp"
#include "spec/lab_spec.hpp"
#include "spec/lab_tracks.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::testing::ScratchDir;

namespace {

const char* kLab = R"(
[lab]
id = "lab99"
title = "Test lab"
sources = ["a.cpp"]

[datasets.small]
generator = "sensor_logs"
seed = 1

[datasets.big]
generator = "sensor_logs"
seed = 2

[datasets.big_py]
generator = "sensor_logs"
seed = 3

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

[[tests]]
name = "speed"
kind = "performance"
points = 5
dataset = "big"
task = "parallel"
[tests.performance]
baseline = "reference:parallel"
)";

const char* kPythonTrack = R"(
[tracks.python]
sources = ["a.py"]
skeleton = "skeleton/python"
reference = "python"
datasets = { big = "big_py" }
)";

LabSpec load(const ScratchDir& dir, const std::string& tracks) {
  std::ofstream(dir.path() / "lab.toml") << kLab << tracks;
  return load_lab_spec(dir.path() / "lab.toml");
}

std::string error_of(const std::string& tracks) {
  ScratchDir dir;
  try {
    load(dir, tracks);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "no error";
}

std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("a lab without [tracks] has the C++ track alone", "[spec][tracks]") {
  ScratchDir dir;
  const LabSpec lab = load(dir, "");
  REQUIRE(lab.tracks.size() == 1);
  CHECK(lab.tracks[0].track == Track::cpp);
  CHECK(lab.tracks[0].sources == std::vector<std::string>{"a.cpp"});
  CHECK(lab.tracks[0].skeleton == "skeleton");
  CHECK(lab.tracks[0].reference.empty());
  CHECK(lab.track == Track::cpp);
  CHECK(track_names(lab) == "cpp");
}

TEST_CASE("[tracks.python] adds a track with its sources, folders and datasets", "[spec][tracks]") {
  ScratchDir dir;
  const LabSpec lab = load(dir, kPythonTrack);
  REQUIRE(lab.tracks.size() == 2);
  const TrackSpec* python = find_track(lab, Track::python);
  REQUIRE(python != nullptr);
  CHECK(python->sources == std::vector<std::string>{"a.py"});
  CHECK(python->skeleton == "skeleton/python");
  CHECK(python->reference == "python");
  CHECK(python->datasets.at("big") == "big_py");
  CHECK(track_names(lab) == "cpp, python");
}

TEST_CASE("for_track gives the track's sources and datasets, the rest unchanged", "[spec][tracks]") {
  ScratchDir dir;
  const LabSpec lab = load(dir, kPythonTrack);
  const LabSpec python = for_track(lab, Track::python);
  CHECK(python.track == Track::python);
  CHECK(python.sources == std::vector<std::string>{"a.py"});
  CHECK(python.tests[0].dataset == "small");   // not in the map: the lab's own
  CHECK(python.tests[1].dataset == "big_py");  // substituted
  CHECK(python.tests.size() == lab.tests.size());
  const LabSpec cpp = for_track(lab, Track::cpp);
  CHECK(cpp.sources == std::vector<std::string>{"a.cpp"});
  CHECK(cpp.tests[1].dataset == "big");
}

TEST_CASE("for_track drops sim-mode counter checks from the Python track only", "[spec][tracks]") {
  ScratchDir dir;
  LabSpec lab = load(dir, kPythonTrack);
  lab.tests[1].sim_check = SimCheckSpec{};
  CHECK_FALSE(for_track(lab, Track::python).tests[1].sim_check.has_value());
  CHECK(for_track(lab, Track::cpp).tests[1].sim_check.has_value());
}

TEST_CASE("for_track of a track the lab lacks is a usage error naming its tracks", "[spec][tracks]") {
  ScratchDir dir;
  const LabSpec lab = load(dir, "");
  CHECK_THROWS_WITH(for_track(lab, Track::python),
                    Catch::Contains("lab99 has no python track (tracks: cpp)"));
  CHECK_THROWS_AS(for_track(lab, Track::python), UsageError);
}

TEST_CASE("an unknown track word names the key and the words allowed", "[spec][tracks]") {
  const std::string e = error_of(with(kPythonTrack, "[tracks.python]", "[tracks.rust]"));
  CHECK_THAT(e, Catch::Contains("'tracks.rust': unknown track 'rust'"));
  CHECK_THAT(e, Catch::Contains("cpp, python"));
  CHECK_THAT(e, Catch::Contains("lab.toml:"));
}

TEST_CASE("[tracks.cpp] is refused: the C++ track is [lab] sources", "[spec][tracks]") {
  CHECK_THAT(error_of(with(kPythonTrack, "[tracks.python]", "[tracks.cpp]")),
             Catch::Contains("'tracks.cpp': the C++ track is [lab] sources"));
}

TEST_CASE("a track's unknown key, wrong source or missing folder is a load error", "[spec][tracks]") {
  CHECK_THAT(error_of(with(kPythonTrack, "reference =", "referense =")),
             Catch::Contains("unknown key 'referense'"));
  CHECK_THAT(error_of(with(kPythonTrack, "\"a.py\"", "\"a.cpp\"")),
             Catch::Contains("'sources': 'a.cpp' must be a .py file name"));
  CHECK_THAT(error_of(with(kPythonTrack, "\"a.py\"", "\"sub/a.py\"")),
             Catch::Contains("'sources': 'sub/a.py'"));
  CHECK_THAT(error_of(with(kPythonTrack, "skeleton = \"skeleton/python\"\n", "")),
             Catch::Contains("skeleton"));
  CHECK_THAT(error_of(with(kPythonTrack, "sources = [\"a.py\"]", "sources = []")),
             Catch::Contains("'sources' must list the files"));
}

TEST_CASE("a track's dataset map names datasets of the lab, hidden alike", "[spec][tracks]") {
  CHECK_THAT(error_of(with(kPythonTrack, "big = \"big_py\"", "big = \"nope\"")),
             Catch::Contains("'datasets': 'nope' is not a dataset of this lab"));
  CHECK_THAT(error_of(with(kPythonTrack, "big = \"big_py\"", "nope = \"big_py\"")),
             Catch::Contains("'datasets': 'nope' is not a dataset of this lab"));
  CHECK_THAT(error_of(with(kPythonTrack, "big = \"big_py\"", "big = \"fresh\"")),
             Catch::Contains("'fresh' must be hidden exactly when 'big' is"));
}

TEST_CASE("lab01 ships a Python track", "[spec][tracks]") {
  const LabSpec lab = load_lab_spec(fs::path(PARLAB_SOURCE_DIR) / "labs/lab01-multiprocessing/lab.toml");
  const TrackSpec* python = find_track(lab, Track::python);
  REQUIRE(python != nullptr);
  CHECK(python->sources == std::vector<std::string>{"file_stats.py"});
  CHECK(fs::is_directory(lab.dir / python->skeleton));
  CHECK(fs::is_regular_file(lab.dir / python->skeleton / "file_stats.py"));
  CHECK(fs::is_regular_file(fs::path(PARLAB_SOURCE_DIR) / "reference/lab01-multiprocessing" /
                            python->reference / "file_stats.py"));
}
