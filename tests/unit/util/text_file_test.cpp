// util/text_file: the grader's own files read back whole, or an error naming the file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "scratch_dir.hpp"
#include "util/text_file.hpp"

namespace fs = std::filesystem;
using parlab::grader::read_text_file;

TEST_CASE("text file: read back whole, bytes as written", "[util]") {
  const parlab::testing::ScratchDir scratch;  // removed even when a check fails
  const fs::path& dir = scratch.path();
  const std::string text("line 1\r\nline 2\n\0binary", 22);
  std::ofstream(dir / "f.txt", std::ios::binary) << text;
  CHECK(read_text_file(dir / "f.txt") == text);
}

TEST_CASE("text file: a missing file is an error naming it", "[util]") {
  CHECK_THROWS_WITH(read_text_file("/nonexistent/parlab/result.json"),
                    Catch::Contains("cannot read /nonexistent/parlab/result.json"));
}
