// The harness's atomic write, as the child uses it (page cache only): the grader's
// durable use is tested in tests/unit/util/atomic_write_test.cpp.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "parlab/harness/atomic_file.hpp"
#include "test_files.hpp"

using parlab::harness::Durability;
using parlab::harness::write_file_atomically;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("harness atomic write replaces the target whole and leaves no temp file",
          "[harness]") {
  parlab::test::TempDir dir;
  const fs::path target = dir / "status.json";
  parlab::test::write_text(target, "old content that is longer than the new one");
  write_file_atomically(target, "{\"status\": \"ok\"}\n", Durability::page_cache);
  CHECK(parlab::test::read_text(target) == "{\"status\": \"ok\"}\n");
  CHECK(entries_in(dir.path()) == 1);
}

TEST_CASE("harness atomic write names the file and the step when the folder is missing",
          "[harness]") {
  parlab::test::TempDir dir;
  const fs::path target = dir / "missing" / "manifest.json";
  CHECK_THROWS_WITH(write_file_atomically(target, "x", Durability::page_cache),
                    Contains(target.string()) && Contains("creating temp file") &&
                        Contains("No such file or directory"));
}

TEST_CASE("harness atomic write past the file size limit says so and leaves nothing",
          "[harness]") {
  parlab::test::TempDir dir;
  const fs::path target = dir / "big.bin";
  // A child's output past RLIMIT_FSIZE: write(2) fails with EFBIG once SIGXFSZ is ignored.
  rlimit saved{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string error;
  try {
    write_file_atomically(target, std::string(64 * 1024, 'x'), Durability::page_cache);
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(error, Contains("writing temp file") && Contains("File too large"));
  CHECK(!fs::exists(target));
  CHECK(entries_in(dir.path()) == 0);
}
