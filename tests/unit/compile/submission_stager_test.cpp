// Staging a submission without trusting its folder: links, FIFOs and oversized files
// are refused by name, and (as root) files are read with the folder owner's rights.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "compile/submission_stager.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

constexpr const char* kSecret = "TOP-SECRET-LINE-4711";

bool any_header(const std::string& name) { return fs::path(name).extension() == ".hpp"; }

struct Folders {
  fs::path root = fs::temp_directory_path() / ("parlab-stager-" + std::to_string(::getpid()));
  fs::path submission = root / "submission";
  fs::path stage = root / "stage";
  fs::path secret = root / "root-only.txt";
  Folders() {
    fs::remove_all(root);
    fs::create_directories(submission);
    std::ofstream(secret) << kSecret << "\n";
    ::chmod(secret.c_str(), 0600);
    std::ofstream(submission / "file_stats.cpp") << "int main() {}\n";
  }
  ~Folders() { fs::remove_all(root); }
  std::string staged(const std::string& name) const {
    std::ifstream in(stage / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

}  // namespace

TEST_CASE("staging copies the listed sources and the student's headers", "[stage]") {
  Folders f;
  std::ofstream(f.submission / "helpers.hpp") << "// helper\n";
  const StagingResult r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  REQUIRE(r.ok());
  CHECK(r.staged == std::vector<std::string>{"file_stats.cpp", "helpers.hpp"});
  CHECK(f.staged("file_stats.cpp") == "int main() {}\n");
  CHECK(f.staged("helpers.hpp") == "// helper\n");
}

TEST_CASE("a missing source is reported as missing", "[stage]") {
  Folders f;
  const StagingResult r = stage_submission_files(f.submission, {"kernels.cu"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK(r.missing);
  CHECK(r.refused_file == "kernels.cu");
}

TEST_CASE("a source that is a symbolic link is refused and never read", "[stage][sandbox]") {
  Folders f;
  fs::remove(f.submission / "file_stats.cpp");
  fs::create_symlink(f.secret, f.submission / "file_stats.cpp");
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK(r.refused_file == "file_stats.cpp");
  CHECK_THAT(r.reason, Catch::Contains("file_stats.cpp is a symbolic link; submit the file itself"));
  CHECK(r.reason.find(kSecret) == std::string::npos);
  CHECK_FALSE(fs::exists(f.stage / "file_stats.cpp"));
}

TEST_CASE("a header that links elsewhere is refused too", "[stage][sandbox]") {
  Folders f;
  fs::create_symlink(f.secret, f.submission / "answers.hpp");
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK(r.refused_file == "answers.hpp");
  CHECK_FALSE(fs::exists(f.stage / "answers.hpp"));
}

TEST_CASE("a FIFO named like a source is refused at once, not waited on", "[stage][sandbox]") {
  Folders f;
  fs::remove(f.submission / "file_stats.cpp");
  REQUIRE(::mkfifo((f.submission / "file_stats.cpp").c_str(), 0644) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.reason, Catch::Contains("FIFO"));
}

TEST_CASE("a directory named like a source is refused", "[stage]") {
  Folders f;
  fs::create_directories(f.submission / "helpers.hpp");
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.reason, Catch::Contains("helpers.hpp is a directory"));
}

TEST_CASE("an oversized source is refused with the cap", "[stage]") {
  Folders f;
  std::ofstream(f.submission / "file_stats.cpp") << std::string(5000, 'x');
  StagingLimits limits;
  limits.max_file_bytes = 4096;
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage, limits);
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.reason, Catch::Contains("file_stats.cpp is larger than"));
}

TEST_CASE("many files together are capped too", "[stage]") {
  Folders f;
  for (int i = 0; i < 4; ++i) std::ofstream(f.submission / ("h" + std::to_string(i) + ".hpp")) << std::string(3000, 'x');
  StagingLimits limits;
  limits.max_total_bytes = 8000;
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage, limits);
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.reason, Catch::Contains("together are larger than"));
}

TEST_CASE("as root, files are read with the submission owner's rights", "[stage][sandbox]") {
  if (::geteuid() != 0) {
    WARN("skipped: needs root (the privilege drop only happens when the grader is root)");
    return;
  }
  Folders f;
  // A hard link to a root-only file in a folder a student owns: root could read it,
  // the student cannot, so staging must not.
  fs::remove(f.submission / "file_stats.cpp");
  fs::create_hard_link(f.secret, f.submission / "file_stats.cpp");
  const uid_t nobody = 65534;
  REQUIRE(::chown(f.submission.c_str(), nobody, nobody) == 0);
  ::chmod(f.root.c_str(), 0755);
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.reason, Catch::Contains("cannot be read with the permissions of the submission "
                                       "folder's owner"));
  CHECK(r.reason.find(kSecret) == std::string::npos);
  CHECK_FALSE(fs::exists(f.stage / "file_stats.cpp"));
  // The owner's own files still stage.
  fs::remove(f.submission / "file_stats.cpp");
  std::ofstream(f.submission / "file_stats.cpp") << "int main() {}\n";
  REQUIRE(::chown((f.submission / "file_stats.cpp").c_str(), nobody, nobody) == 0);
  CHECK(stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage).ok());
}

TEST_CASE("a header in a sub-folder is staged at the same relative path", "[stage]") {
  Folders f;
  fs::create_directories(f.submission / "common" / "detail");
  std::ofstream(f.submission / "common" / "helpers.hpp") << "// common helper\n";
  std::ofstream(f.submission / "common" / "detail" / "inner.hpp") << "// inner\n";
  std::ofstream(f.submission / "common" / "notes.txt") << "not a header\n";
  fs::create_directories(f.submission / ".git" / "hooks");
  std::ofstream(f.submission / ".git" / "hooks" / "hidden.hpp") << "// never staged\n";
  fs::create_directories(f.submission / "__MACOSX" / "common");
  std::ofstream(f.submission / "__MACOSX" / "common" / "._helpers.hpp") << "AppleDouble\n";
  const StagingResult r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  REQUIRE(r.ok());
  CHECK(r.staged == std::vector<std::string>{"file_stats.cpp", "common/detail/inner.hpp",
                                             "common/helpers.hpp"});
  CHECK(f.staged("common/helpers.hpp") == "// common helper\n");
  CHECK(f.staged("common/detail/inner.hpp") == "// inner\n");
  CHECK_FALSE(fs::exists(f.stage / "common" / "notes.txt"));
  CHECK_FALSE(fs::exists(f.stage / ".git"));
  CHECK_FALSE(fs::exists(f.stage / "__MACOSX"));
}

TEST_CASE("a sub-folder that is a symbolic link is refused by name and never entered",
          "[stage][sandbox]") {
  Folders f;
  fs::create_directories(f.root / "elsewhere");
  std::ofstream(f.root / "elsewhere" / "stolen.hpp") << kSecret << "\n";
  fs::create_directory_symlink(f.root / "elsewhere", f.submission / "common");
  const StagingResult r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK(r.refused_file == "common");
  CHECK_THAT(r.reason, Catch::Contains("common is a symbolic link to a folder; submit the folder itself"));
  CHECK_FALSE(fs::exists(f.stage / "common"));
}

TEST_CASE("a header in a sub-folder that links elsewhere is refused with its path", "[stage][sandbox]") {
  Folders f;
  fs::create_directories(f.submission / "common");
  fs::create_symlink(f.secret, f.submission / "common" / "answers.hpp");
  const StagingResult r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK(r.refused_file == "common/answers.hpp");
  CHECK_THAT(r.reason, Catch::Contains("common/answers.hpp is a symbolic link"));
  CHECK_FALSE(fs::exists(f.stage / "common" / "answers.hpp"));
}

TEST_CASE("a header nested too deep is refused by name", "[stage]") {
  Folders f;
  StagingLimits limits;
  limits.max_depth = 2;
  fs::create_directories(f.submission / "a" / "b" / "c");
  std::ofstream(f.submission / "a" / "b" / "ok.hpp") << "\n";
  CHECK(stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage, limits).ok());
  std::ofstream(f.submission / "a" / "b" / "c" / "deep.hpp") << "\n";
  const StagingResult r =
      stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage, limits);
  CHECK_FALSE(r.ok());
  CHECK(r.refused_file == "a/b/c/deep.hpp");
  CHECK_THAT(r.reason, Catch::Contains("a/b/c/deep.hpp is nested deeper than the 2 sub-folder levels"));
}

TEST_CASE("too many headers in sub-folders, or too many names, are refused by name", "[stage]") {
  Folders f;
  fs::create_directories(f.submission / "many");
  for (int i = 0; i < 5; ++i) std::ofstream(f.submission / "many" / ("h" + std::to_string(i) + ".hpp")) << "\n";
  StagingLimits limits;
  limits.max_subfolder_files = 4;
  StagingResult r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage, limits);
  CHECK_FALSE(r.ok());
  CHECK(r.refused_file == "many/h4.hpp");
  CHECK_THAT(r.reason, Catch::Contains("more than 4 headers in sub-folders (reached at many/h4.hpp)"));

  limits = {};
  limits.max_walk_entries = 3;
  r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage, limits);
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.reason, Catch::Contains("holds more than 3 files and folders"));
}

TEST_CASE("api.hpp is never staged, in any folder", "[stage]") {
  Folders f;
  fs::create_directories(f.submission / "common");
  std::ofstream(f.submission / "common" / "api.hpp") << "// a changed signature\n";
  std::ofstream(f.submission / "api.hpp") << "// a changed signature\n";
  auto student_header = [](const std::string& path) {
    return any_header(path) && fs::path(path).filename() != "api.hpp";
  };
  const StagingResult r = stage_submission_files(f.submission, {"file_stats.cpp"}, +student_header, f.stage);
  REQUIRE(r.ok());
  CHECK(r.staged == std::vector<std::string>{"file_stats.cpp"});
}

TEST_CASE("as root, sub-folders are walked and read with the submission owner's rights",
          "[stage][sandbox]") {
  if (::geteuid() != 0) {
    WARN("skipped: needs root (the privilege drop only happens when the grader is root)");
    return;
  }
  Folders f;
  const uid_t nobody = 65534;
  ::chmod(f.root.c_str(), 0755);
  fs::create_directories(f.submission / "common");
  // A folder the owner cannot list (root's, mode 0700): its headers are not the
  // student's to submit, so the walk, as the owner, does not see them.
  fs::create_directories(f.submission / "rootonly");
  std::ofstream(f.submission / "rootonly" / "secret.hpp") << kSecret << "\n";
  ::chmod((f.submission / "rootonly").c_str(), 0700);
  std::ofstream(f.submission / "common" / "mine.hpp") << "// mine\n";
  for (const fs::path& p : {f.submission, f.submission / "file_stats.cpp", f.submission / "common",
                            f.submission / "common" / "mine.hpp"}) {
    REQUIRE(::chown(p.c_str(), nobody, nobody) == 0);
  }
  StagingResult r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  REQUIRE(r.ok());
  CHECK(r.staged == std::vector<std::string>{"file_stats.cpp", "common/mine.hpp"});
  CHECK_FALSE(fs::exists(f.stage / "rootonly"));
  // A hard link to a root-only file in the student's sub-folder fails as it would for them.
  fs::create_hard_link(f.secret, f.submission / "common" / "answers.hpp");
  r = stage_submission_files(f.submission, {"file_stats.cpp"}, any_header, f.stage);
  CHECK_FALSE(r.ok());
  CHECK(r.refused_file == "common/answers.hpp");
  CHECK_THAT(r.reason, Catch::Contains("cannot be read with the permissions of the submission "
                                       "folder's owner"));
  CHECK(r.reason.find(kSecret) == std::string::npos);
}
