#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "util/atomic_write.hpp"
#include "scratch_dir.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

using parlab::testing::ScratchDir;  // tests/unit/support/scratch_dir.hpp

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("atomic write creates parents, writes the content, leaves no temp file", "[util]") {
  ScratchDir dir;
  const fs::path target = dir.path() / "a" / "b" / "result.json";
  const std::string content = std::string("{\"x\": 1}\n") + '\0' + "binary tail";
  write_file_atomically(target, content);
  CHECK(read_all(target) == content);
  CHECK(entries_in(target.parent_path()) == 1);
}

TEST_CASE("atomic write replaces an existing file whole", "[util]") {
  ScratchDir dir;
  const fs::path target = dir.path() / "report.txt";
  write_file_atomically(target, std::string(100000, 'a'));
  write_file_atomically(target, "short");
  CHECK(read_all(target) == "short");
  CHECK(entries_in(dir.path()) == 1);
}

TEST_CASE("atomic write throws naming the path when the directory cannot be made", "[util]") {
  ScratchDir dir;
  write_file_atomically(dir.path() / "plain_file", "x");
  // A regular file where a directory is needed fails even for root.
  const fs::path target = dir.path() / "plain_file" / "sub" / "result.json";
  CHECK_THROWS_WITH(write_file_atomically(target, "data"),
                    Contains(target.string()) && Contains("Not a directory"));
}

TEST_CASE("atomic write throws naming the path in a read-only directory", "[util]") {
  if (::geteuid() == 0) {
    WARN("running as root: permission bits do not stop writes, skipping");
    return;
  }
  ScratchDir dir;
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
  const fs::path target = dir.path() / "result.json";
  CHECK_THROWS_WITH(write_file_atomically(target, "data"),
                    Contains(target.string()) && Contains("Permission denied"));
  fs::permissions(dir.path(), fs::perms::owner_all);
  CHECK(entries_in(dir.path()) == 0);
}
