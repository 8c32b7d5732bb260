// The instructor's files are closed to the submission's uid: reference executables
// and the folders of reference sources and objects get the submissions' group with no
// group permission (others keep theirs), owners are kept, links are refused.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "core/errors.hpp"
#include "grading/reference_seal.hpp"

using namespace parlab::grader;
namespace fs = std::filesystem;

namespace {

struct Tree {
  fs::path root = fs::temp_directory_path() / ("reference-seal-" + std::to_string(::getpid()));
  Tree() { fs::create_directories(root); }
  ~Tree() { fs::remove_all(root); }
};

mode_t mode_of(const fs::path& p) {
  struct stat info {};
  REQUIRE(::lstat(p.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

}  // namespace

TEST_CASE("The instructor's files are listed from the toolchain and sealed", "[grading][seal]") {
  Tree tree;
  Toolchain tc;
  tc.source_dir = tree.root / "src";
  tc.build_dir = tree.root / "build";
  fs::create_directories(tc.source_dir / "reference" / "lab01");
  fs::create_directories(tc.build_dir / "labs" / "CMakeFiles");
  LabToolchain lab;
  lab.reference_dir = tc.source_dir / "reference" / "lab01";
  lab.reference_exe = tc.build_dir / "labs" / "lab01_reference";
  lab.sim_reference_exe = tc.build_dir / "labs" / "not_built";
  std::ofstream(lab.reference_exe) << "#!/bin/sh\n";
  fs::permissions(lab.reference_exe, fs::perms(0755));
  tc.labs["lab01"] = lab;

  const InstructorFiles files = instructor_files(tc);
  REQUIRE(files.executables == std::vector<fs::path>{lab.reference_exe});  // missing ones left out
  CHECK(std::find(files.folders.begin(), files.folders.end(), tc.source_dir / "reference") != files.folders.end());
  CHECK(std::find(files.folders.begin(), files.folders.end(), tc.build_dir / "labs" / "CMakeFiles") !=
        files.folders.end());

  if (::geteuid() != 0) {
    WARN("not root: cannot give files another group");
    return;
  }
  seal_instructor_files(files, 61099);
  struct stat info {};
  REQUIRE(::stat(lab.reference_exe.c_str(), &info) == 0);
  CHECK(info.st_gid == 61099);
  CHECK(info.st_uid == 0);  // owner kept
  // No group permission, the others' kept: the group refuses the submissions only.
  CHECK(mode_of(lab.reference_exe) == 0705);
  for (const fs::path& folder : {tc.source_dir / "reference", tc.build_dir / "labs" / "CMakeFiles"}) {
    REQUIRE(::stat(folder.c_str(), &info) == 0);
    CHECK(info.st_gid == 61099);
    CHECK((mode_of(folder) & 070) == 0);
    CHECK((mode_of(folder) & 0707) == 0705);
  }

  // A link where an executable should be is refused, not followed.
  fs::remove(lab.reference_exe);
  const fs::path target = tree.root / "target";
  std::ofstream(target) << "x";
  fs::permissions(target, fs::perms(0644));
  fs::create_symlink(target, lab.reference_exe);
  CHECK_THROWS_AS(seal_instructor_files({{lab.reference_exe}, {}}, 61099), EnvironmentError);
  CHECK(mode_of(target) == 0644);
}
