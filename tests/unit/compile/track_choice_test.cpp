// Which track a submission folder holds: by its sources' names, or --language.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "compile/track_choice.hpp"
#include "core/errors.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::testing::ScratchDir;

namespace {

LabSpec two_track_lab() {
  LabSpec lab;
  lab.id = "lab01";
  TrackSpec cpp;
  cpp.sources = {"file_stats.cpp"};
  TrackSpec python;
  python.track = Track::python;
  python.sources = {"file_stats.py"};
  lab.tracks = {cpp, python};
  return lab;
}

void touch(const fs::path& file) { std::ofstream(file) << "\n"; }

}  // namespace

TEST_CASE("a folder's sources choose its track", "[compile][tracks]") {
  const LabSpec lab = two_track_lab();
  ScratchDir py, cpp;
  touch(py.path() / "file_stats.py");
  touch(cpp.path() / "file_stats.cpp");
  CHECK(choose_track(lab, py.path(), std::nullopt) == Track::python);
  CHECK(choose_track(lab, cpp.path(), std::nullopt) == Track::cpp);
}

TEST_CASE("a folder with neither track's sources is the C++ track's (its build names the file)",
          "[compile][tracks]") {
  ScratchDir empty;
  CHECK(choose_track(two_track_lab(), empty.path(), std::nullopt) == Track::cpp);
}

TEST_CASE("both tracks' sources: refused, naming both files and --language", "[compile][tracks]") {
  ScratchDir both;
  touch(both.path() / "file_stats.py");
  touch(both.path() / "file_stats.cpp");
  CHECK_THROWS_AS(choose_track(two_track_lab(), both.path(), std::nullopt), UsageError);
  CHECK_THROWS_WITH(choose_track(two_track_lab(), both.path(), std::nullopt),
                    Catch::Contains("both file_stats.cpp (cpp track) and file_stats.py (python track)") &&
                        Catch::Contains("--language cpp or --language python"));
}

TEST_CASE("the language option decides, whatever the folder holds", "[compile][tracks]") {
  ScratchDir both;
  touch(both.path() / "file_stats.py");
  touch(both.path() / "file_stats.cpp");
  CHECK(choose_track(two_track_lab(), both.path(), Track::python) == Track::python);
  CHECK(choose_track(two_track_lab(), both.path(), Track::cpp) == Track::cpp);
}

TEST_CASE("a link named like a source counts as present (the stager refuses it by name)",
          "[compile][tracks]") {
  ScratchDir dir;
  fs::create_symlink("/nonexistent", dir.path() / "file_stats.py");
  CHECK(choose_track(two_track_lab(), dir.path(), std::nullopt) == Track::python);
}
