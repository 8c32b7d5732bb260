// A finished build becomes the grader's: every entry owned by the grader and writable
// by no one else, links not followed; a cached build is intact only while the
// executable's SHA-256 and that ownership hold.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "compile/build_seal.hpp"

using namespace parlab::grader;
namespace fs = std::filesystem;

namespace {

struct Build {
  fs::path root = fs::temp_directory_path() / ("build-seal-" + std::to_string(::getpid()));
  fs::path dir = root / "host";
  fs::path exe = dir / "bin" / "lab01_submission";
  Build() {
    fs::create_directories(exe.parent_path());
    std::ofstream(exe) << "\x7f" "ELF pretend";
    fs::permissions(exe, fs::perms(0777));
    fs::permissions(exe.parent_path(), fs::perms(0777));
  }
  ~Build() { fs::remove_all(root); }
};

}  // namespace

TEST_CASE("The executable's digest is SHA-256 of its bytes", "[compile][build_seal]") {
  Build b;
  std::ofstream(b.exe, std::ios::trunc) << "abc";
  CHECK(executable_digest(b.exe) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(executable_digest(b.root / "missing").empty());
}

TEST_CASE("A frozen build is the grader's and stays intact until changed", "[compile][build_seal]") {
  Build b;
  const fs::path outside = b.root / "outside";
  std::ofstream(outside) << "x";
  fs::permissions(outside, fs::perms(0666));
  fs::create_symlink(outside, b.dir / "bin" / "link");
  if (::geteuid() != 0) {
    WARN("not root: a build cannot be given to another uid, so freezing does nothing");
    return;
  }
  REQUIRE(::chown(b.exe.c_str(), 60599, 60599) == 0);
  freeze_build(b.dir);
  struct stat info {};
  REQUIRE(::stat(b.exe.c_str(), &info) == 0);
  CHECK(info.st_uid == 0);
  CHECK((info.st_mode & 07777) == 0755);
  REQUIRE(::stat(b.exe.parent_path().c_str(), &info) == 0);
  CHECK((info.st_mode & 022) == 0);
  REQUIRE(::stat(outside.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0666);  // the link's target is not the build's

  const fs::path key = b.dir / "bin" / "build.key";
  const std::string digest = build_digest(b.exe.parent_path(), key);
  REQUIRE_FALSE(digest.empty());
  std::ofstream(key) << "the key file itself is not part of the digest";
  CHECK(build_intact(b.dir, b.exe, key, digest));
  CHECK_FALSE(build_intact(b.dir, b.exe, key, ""));
  // Any other file of the build changed (a Python program's driver or sources): not reused.
  std::ofstream(b.dir / "bin" / "extra.py") << "x";
  CHECK_FALSE(build_intact(b.dir, b.exe, key, digest));
  fs::remove(b.dir / "bin" / "extra.py");
  CHECK(build_intact(b.dir, b.exe, key, digest));
  // The staged sources are staged again by every grading, without the build's
  // intermediates (a sim build's rewritten copies): that alone must not cost a rebuild.
  fs::create_directories(b.dir / "src");
  std::ofstream(b.dir / "src" / "restaged.cu") << "x";
  CHECK(build_intact(b.dir, b.exe, key, digest));
  // Writable by others again, or owned by a run's uid: not reused.
  fs::permissions(b.exe.parent_path(), fs::perms(0777));
  CHECK_FALSE(build_intact(b.dir, b.exe, key, digest));
  fs::permissions(b.exe.parent_path(), fs::perms(0755));
  REQUIRE(::chown(b.exe.c_str(), 60599, 60599) == 0);
  CHECK_FALSE(build_intact(b.dir, b.exe, key, digest));
  REQUIRE(::chown(b.exe.c_str(), 0, 0) == 0);
  std::ofstream(b.exe, std::ios::app) << "patched";
  CHECK_FALSE(build_intact(b.dir, b.exe, key, digest));
}
