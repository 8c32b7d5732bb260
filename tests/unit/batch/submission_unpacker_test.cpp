#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <fstream>

#include "batch/submission_unpacker.hpp"
#include "batch_test_support.hpp"

using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;
using Catch::Matchers::Contains;
using T = ArchiveEntry::Type;
namespace fs = std::filesystem;

namespace {

// Unpacks into scratch/dest; everything the archive could touch outside is scratch/outside.
UnpackOutcome unpack(const ScratchDir& s, const std::string& format, const std::vector<ArchiveEntry>& entries,
                     UnpackLimits limits = {}) {
  const fs::path file = s.path() / ("in." + format);
  write_archive(file, format, entries);
  return unpack_archive(file, s.path() / "work" / "dest", limits);
}

// Nothing but the archive and the dest folder exists in the scratch dir.
void require_nothing_outside(const ScratchDir& s) {
  for (const auto& e : fs::recursive_directory_iterator(s.path())) {
    const fs::path rel = fs::relative(e.path(), s.path());
    const std::string first = rel.begin()->string();
    INFO(rel.string());
    CHECK((first.rfind("in.", 0) == 0 || first == "work"));
    if (first == "work" && rel != "work") CHECK((++rel.begin())->string() == "dest");
  }
}

}  // namespace

TEST_CASE("zip, tar and tar.gz unpack into the destination") {
  for (const std::string format : {"zip", "tar", "tar.gz"}) {
    ScratchDir s;
    UnpackOutcome o = unpack(s, format,
                             {{T::dir, "./", ""},
                              {T::dir, "lab01/", ""},
                              {T::file, "lab01/file_stats.cpp", "int main() {}\n"},
                              {T::file, "lab01/notes/readme.txt", "hi"},
                              {T::symlink, "lab01/alias.cpp", "file_stats.cpp"}});
    INFO(format << ": " << o.problem);
    REQUIRE(o.ok());
    const fs::path d = s.path() / "work" / "dest";
    CHECK(read_text(d / "lab01" / "file_stats.cpp") == "int main() {}\n");
    CHECK(read_text(d / "lab01" / "notes" / "readme.txt") == "hi");
    CHECK(fs::is_symlink(d / "lab01" / "alias.cpp"));
    CHECK(o.bytes == 16);
    CHECK(o.entries == 4);  // "./" is the folder itself
    CHECK(find_submission_root(d, "file_stats.cpp") == d / "lab01");
  }
}

TEST_CASE("hostile archives are refused with the reason and write nothing outside") {
  struct Case {
    const char* what;
    std::vector<ArchiveEntry> entries;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"dot-dot", {{T::file, "ok.cpp", "x"}, {T::file, "../outside.txt", "pwned"}}, "climbs out"},
      {"deep dot-dot", {{T::file, "a/b/../../../outside.txt", "pwned"}}, "climbs out"},
      {"absolute", {{T::file, "/tmp/parlab_batch_abs_test.txt", "pwned"}}, "absolute path"},
      {"symlink out", {{T::symlink, "link", "../../"}, {T::file, "link/outside.txt", "x"}}, "points outside"},
      {"absolute symlink", {{T::symlink, "passwd", "/etc/passwd"}}, "points outside"},
      {"write through a symlink", {{T::symlink, "d", "."}, {T::file, "d/x.cpp", "x"}}, "goes through the symlink"},
      {"overwrite a symlink", {{T::symlink, "f.cpp", "g.cpp"}, {T::file, "f.cpp", "x"}}, "through a symlink"},
      {"hard link", {{T::file, "a.cpp", "x"}, {T::hardlink, "b.cpp", "/etc/passwd"}}, "hard link"},
  };
  for (const Case& c : cases) {
    for (const std::string format : {"zip", "tar.gz"}) {
      if (format == "zip" && std::string(c.what) == "hard link") continue;  // zip has no hard links
      ScratchDir s;
      UnpackOutcome o = unpack(s, format, c.entries);
      INFO(c.what << " (" << format << "): " << o.problem);
      CHECK_THAT(o.problem, Contains(c.reason));
      require_nothing_outside(s);
    }
  }
  CHECK_FALSE(fs::exists("/tmp/parlab_batch_abs_test.txt"));
}

TEST_CASE("size and entry caps are enforced while unpacking") {
  ScratchDir s;
  UnpackLimits small{1000, 5};
  UnpackOutcome big = unpack(s, "tar.gz", {{T::file, "zeros.bin", std::string(100000, '\0')}}, small);
  CHECK_THAT(big.problem, Contains("unpacks to more than"));
  CHECK(big.bytes <= 100000);
  // The file on disk never grew far past the cap (one read block at most).
  const fs::path zeros = s.path() / "work" / "dest" / "zeros.bin";
  if (fs::exists(zeros)) CHECK(fs::file_size(zeros) <= 1000 + 65536);

  ScratchDir s2;
  std::vector<ArchiveEntry> many;
  for (int i = 0; i < 10; ++i) many.push_back({T::file, "f" + std::to_string(i), "x"});
  CHECK_THAT(unpack(s2, "zip", many, small).problem, Contains("more than 5 entries"));
}

TEST_CASE("corrupt, truncated and empty archives are not valid archives") {
  ScratchDir s;
  const fs::path junk = s.path() / "junk.zip";
  write_text(junk, "this is not a zip file at all, just text pretending to be one");
  CHECK_THAT(unpack_archive(junk, s.path() / "d1", {}).problem, Contains("not a valid archive"));

  const fs::path good = s.path() / "good.tar.gz";
  write_archive(good, "tar.gz", {{T::file, "file_stats.cpp", std::string(200000, 'x')}});
  std::string bytes = read_text(good);
  const fs::path cut = s.path() / "cut.tar.gz";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  CHECK_THAT(unpack_archive(cut, s.path() / "d2", {}).problem, Contains("not a valid archive"));

  const fs::path empty = s.path() / "empty.tar";
  write_archive(empty, "tar", {});
  CHECK_THAT(unpack_archive(empty, s.path() / "d3", {}).problem, Contains("empty"));
}

TEST_CASE("folders are copied with the same rules, links never followed") {
  ScratchDir s;
  const fs::path src = s.path() / "alice";
  write_text(src / "file_stats.cpp", "int x;\n");
  write_text(src / "sub" / "util.hpp", "#pragma once\n");
  fs::create_symlink("file_stats.cpp", src / "alias.cpp");
  UnpackOutcome ok = copy_folder(src, s.path() / "copy", {});
  INFO(ok.problem);
  REQUIRE(ok.ok());
  CHECK(read_text(s.path() / "copy" / "sub" / "util.hpp") == "#pragma once\n");
  CHECK(fs::is_symlink(s.path() / "copy" / "alias.cpp"));

  fs::create_symlink("/etc/passwd", src / "stolen.cpp");
  UnpackOutcome bad = copy_folder(src, s.path() / "copy2", {});
  CHECK_THAT(bad.problem, Contains("'stolen.cpp' points outside"));

  ScratchDir s2;
  const fs::path fifo_dir = s2.path() / "bob";
  fs::create_directories(fifo_dir);
  REQUIRE(::mkfifo((fifo_dir / "pipe").c_str(), 0644) == 0);
  CHECK_THAT(copy_folder(fifo_dir, s2.path() / "copy", {}).problem, Contains("fifo"));
}

TEST_CASE("the submission root skips one wrapping folder and archiver litter") {
  ScratchDir s;
  const fs::path d = s.path() / "d";
  write_text(d / "__MACOSX" / "._x", "");
  write_text(d / "my lab" / "file_stats.cpp", "");
  CHECK(find_submission_root(d, "file_stats.cpp") == d / "my lab");
  // A source at the top wins; two folders are ambiguous, so the top is kept.
  write_text(d / "other" / "x", "");
  CHECK(find_submission_root(d, "file_stats.cpp") == d);
}
