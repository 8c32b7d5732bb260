// The grader's trees closed by an allow list: everything a submission's compile and
// runs do not need gets the submissions' group with no group permission, folders on
// the way to what they need can be searched but not listed, links are left alone, a
// worktree's git folder elsewhere is closed whole, and an allowed path an earlier seal
// closed is opened again.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>

#include "grading/grader_tree_seal.hpp"
#include "grading/work_root_registry.hpp"

using namespace parlab::grader;
namespace fs = std::filesystem;

namespace {

struct Tree {
  fs::path root = fs::temp_directory_path() / ("tree-seal-" + std::to_string(::getpid()));
  Tree() { fs::create_directories(root); }
  ~Tree() { fs::remove_all(root); }
  void file(const fs::path& rel) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << "x";
    fs::permissions(root / rel, fs::perms(0644));
  }
};

mode_t mode_of(const fs::path& p) {
  struct stat info {};
  REQUIRE(::lstat(p.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

gid_t gid_of(const fs::path& p) {
  struct stat info {};
  REQUIRE(::lstat(p.c_str(), &info) == 0);
  return info.st_gid;
}

bool has(const std::vector<fs::path>& list, const fs::path& p) {
  return std::find(list.begin(), list.end(), p) != list.end();
}

}  // namespace

TEST_CASE("The seal closes everything but the allowed paths and the way to them", "[grading][seal]") {
  Tree t;
  for (const char* f : {"src/.git/objects/ab/cdef", "src/reference/lab01/file_stats.cpp", "src/labs/lab01/api.hpp",
                        "src/labs/README.md", "src/harness/include/h.hpp", "src/harness/src/h.cpp",
                        "src/build/labs/libdriver.a", "src/build/labs/lab01_reference",
                        "src/build/grade-work/lab01/x", "src/build/toolchain.json", "src/README.md"})
    t.file(f);
  fs::create_symlink(t.root / "src/reference", t.root / "src/build/labs/link-to-reference");
  const fs::path src = t.root / "src";
  const TreeSeal seal = plan_tree_seal({src, src / "build"},
                                       {src / "labs/lab01", src / "harness/include", src / "build/labs/libdriver.a",
                                        src / "build/grade-work"});
  for (const char* closed : {".git", "reference", "labs/README.md", "harness/src", "build/labs/lab01_reference",
                             "build/toolchain.json", "README.md"})
    CHECK(has(seal.closed, src / closed));
  CHECK(has(seal.passages, src));
  for (const char* passage : {"labs", "harness", "build", "build/labs"}) CHECK(has(seal.passages, src / passage));
  for (const char* open : {"labs/lab01", "harness/include", "build/labs/libdriver.a", "build/grade-work"})
    CHECK(has(seal.open, src / open));
  // The nested root is walked once; a link is neither followed nor closed.
  CHECK(std::count(seal.passages.begin(), seal.passages.end(), src / "build") == 1);
  CHECK_FALSE(has(seal.closed, src / "build/labs/link-to-reference"));
  CHECK_FALSE(has(seal.closed, src / "labs/lab01/api.hpp"));  // inside an allowed folder: untouched

  if (::geteuid() != 0) {
    WARN("not root: cannot give files another group");
    return;
  }
  const gid_t gid = 61098;
  apply_tree_seal(seal, gid);
  CHECK(gid_of(src / ".git") == gid);
  CHECK((mode_of(src / ".git") & 070) == 0);
  CHECK((mode_of(src / ".git") & 07) == (mode_of(src / "labs/lab01") & 07));  // others keep theirs
  CHECK((mode_of(src / "reference/lab01/file_stats.cpp")) == 0644);           // below a closed folder: as it was
  CHECK((mode_of(src / "build/labs") & 070) == 010);                          // search, no listing
  CHECK(gid_of(src / "labs/lab01") != gid);                                   // allowed: untouched

  // An allowed path an earlier seal closed is opened again, with the others' bits.
  const TreeSeal other = plan_tree_seal({src}, {src / "labs/lab01", src / "build/labs/libdriver.a"});
  apply_tree_seal(other, gid);
  REQUIRE((mode_of(src / "build/grade-work") & 070) == 0);
  apply_tree_seal(seal, gid);
  CHECK((mode_of(src / "build/grade-work") & 070) == ((mode_of(src / "build/grade-work") & 07) << 3));
  CHECK((mode_of(src / "build") & 070) == 010);

  // A private folder on the way (others may not enter) keeps its group and mode: the
  // submissions get the others' nothing there anyway.
  fs::create_directories(src / "private/work");
  fs::permissions(src / "private", fs::perms(0700));
  const gid_t before = gid_of(src / "private");
  apply_tree_seal(plan_tree_seal({src}, {src / "private/work"}), gid);
  CHECK(mode_of(src / "private") == 0700);
  CHECK(gid_of(src / "private") == before);
}

TEST_CASE("A worktree's git folders elsewhere are found from its .git file", "[grading][seal]") {
  Tree t;
  fs::create_directories(t.root / "main/.git/worktrees/wt");
  std::ofstream(t.root / "main/.git/worktrees/wt/commondir") << "../..\n";
  fs::create_directories(t.root / "wt");
  std::ofstream(t.root / "wt/.git") << "gitdir: " << (t.root / "main/.git/worktrees/wt").string() << "\n";
  const std::vector<fs::path> found = git_folders_elsewhere(t.root / "wt");
  CHECK(has(found, t.root / "main/.git/worktrees/wt"));
  CHECK(has(found, t.root / "main/.git"));
  CHECK(git_folders_elsewhere(t.root / "main").empty());  // .git is a folder there: walked, closed
}

TEST_CASE("Work roots are registered once and drop out when removed", "[grading][seal]") {
  Tree t;
  const fs::path registry = work_root_registry(t.root);
  fs::create_directories(t.root / "w1");
  fs::create_directories(t.root / "w2");
  register_work_root(registry, t.root / "w1");
  register_work_root(registry, t.root / "w1/");
  register_work_root(registry, t.root / "w2");
  CHECK(registered_work_roots(registry) == std::vector<fs::path>{t.root / "w1", t.root / "w2"});
  fs::remove(t.root / "w1");
  CHECK(registered_work_roots(registry) == std::vector<fs::path>{t.root / "w2"});
  CHECK((mode_of(registry) & 077) == 0);
}
