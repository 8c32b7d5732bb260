#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "compile/submission_check.hpp"

using namespace parlab::grader;
namespace fs = std::filesystem;

namespace {

// A scratch submission folder holding the given (empty) files.
fs::path folder_with(const std::string& name, std::initializer_list<const char*> files) {
  const fs::path dir = fs::temp_directory_path() / ("parlab-submission-check-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* f : files) std::ofstream(dir / f) << "// " << f << "\n";
  return dir;
}

}  // namespace

TEST_CASE("edit distance counts single-character edits", "[compile][submission_check]") {
  CHECK(edit_distance("kernels.cu", "kernels.cu") == 0);
  CHECK(edit_distance("kernels.cu", "kernel.cu") == 1);
  CHECK(edit_distance("file_stats.cpp", "filestats.cpp") == 1);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("a misnamed source is missing with a did-you-mean, extra sources are listed",
          "[compile][submission_check]") {
  const fs::path dir = folder_with("misnamed", {"kernel.cu", "helper.cu", "notes.txt", "util.cuh"});
  const SubmissionCheck check = check_submission(dir, {"kernels.cu"});
  REQUIRE(check.missing.size() == 1);
  CHECK(check.missing[0].name == "kernels.cu");
  CHECK(check.missing[0].did_you_mean == "kernel.cu");
  // The misnamed file is the suggestion, not also an extra; headers and notes are no sources.
  CHECK(check.not_compiled == std::vector<std::string>{"helper.cu"});
  CHECK_FALSE(check.ok());

  const auto diagnostics = submission_check_diagnostics(check, dir, "lab03", {"kernels.cu"},
                                                        "labs/lab03-cuda-kernels/skeleton");
  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[0].severity == "error");
  CHECK(diagnostics[0].message ==
        "kernels.cu is missing: a lab03 submission must contain it; did you mean kernel.cu? "
        "(rename it to kernels.cu)");
  CHECK(diagnostics[1].severity == "warning");
  CHECK(diagnostics[1].message ==
        "helper.cu will not be compiled: lab03 compiles only kernels.cu (move its code there)");
  fs::remove_all(dir);
}

TEST_CASE("a case-only difference is suggested, nothing similar points at the skeleton",
          "[compile][submission_check]") {
  const fs::path dir = folder_with("case", {"File_Stats.cpp"});
  CHECK(check_submission(dir, {"file_stats.cpp"}).missing.at(0).did_you_mean == "File_Stats.cpp");

  const fs::path other = folder_with("unrelated", {"main.cpp"});
  const SubmissionCheck check = check_submission(other, {"file_stats.cpp"});
  REQUIRE(check.missing.size() == 1);
  CHECK(check.missing[0].did_you_mean.empty());
  CHECK(check.not_compiled == std::vector<std::string>{"main.cpp"});
  const auto d = submission_check_diagnostics(check, other, "lab01", {"file_stats.cpp"},
                                              "labs/lab01-multiprocessing/skeleton");
  CHECK(d.at(0).message == "file_stats.cpp is missing: a lab01 submission must contain it (start "
                           "from labs/lab01-multiprocessing/skeleton/file_stats.cpp)");
  fs::remove_all(dir);
  fs::remove_all(other);
}

TEST_CASE("sources in sub-folders are listed as not compiled, with where headers may go",
          "[compile][submission_check]") {
  const fs::path dir = folder_with("subfolders", {"kernels.cu"});
  fs::create_directories(dir / "kernels" / "old");
  std::ofstream(dir / "kernels" / "scan.cuh") << "";       // a header: staged, not listed
  std::ofstream(dir / "kernels" / "old" / "v1.cu") << "";  // a source: listed
  fs::create_directories(dir / ".git");
  std::ofstream(dir / ".git" / "hook.cpp") << "";           // hidden folders are not looked at
  const SubmissionCheck check = check_submission(dir, {"kernels.cu"});
  CHECK(check.ok());
  CHECK(check.not_compiled == std::vector<std::string>{"kernels/old/v1.cu"});
  const auto d = submission_check_diagnostics(check, dir, "lab03", {"kernels.cu"}, "");
  REQUIRE(d.size() == 1);
  CHECK(d[0].file == (dir / "kernels/old/v1.cu").string());
  CHECK(d[0].message == "kernels/old/v1.cu will not be compiled: lab03 compiles only kernels.cu "
                        "and takes only headers from sub-folders (move its code there, or into "
                        "a header they include)");
  fs::remove_all(dir);
}

TEST_CASE("a complete submission passes the check", "[compile][submission_check]") {
  const fs::path dir = folder_with("complete", {"file_stats.cpp", "helpers.hpp"});
  const SubmissionCheck check = check_submission(dir, {"file_stats.cpp"});
  CHECK(check.ok());
  CHECK(check.not_compiled.empty());
  fs::remove_all(dir);
}

TEST_CASE("the submission must be a folder: missing and file are usage errors",
          "[compile][submission_check]") {
  const fs::path dir = folder_with("folder", {"file_stats.cpp"});
  CHECK_NOTHROW(require_submission_folder(dir));
  CHECK_THROWS_WITH(require_submission_folder(dir / "nope"),
                    Catch::StartsWith("submission folder not found: "));
  CHECK_THROWS_AS(require_submission_folder(dir / "file_stats.cpp"), UsageError);
  CHECK_THROWS_WITH(require_submission_folder(dir / "file_stats.cpp"),
                    Catch::Contains("file_stats.cpp is a file, not a folder: give the folder"));
  fs::remove_all(dir);
}
