#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "util/program_on_path.hpp"

namespace fs = std::filesystem;
using parlab::grader::program_on_path;

TEST_CASE("a program is found in PATH's absolute folders, executable files only", "[util]") {
  const fs::path dir = fs::temp_directory_path() / ("program-on-path-" + std::to_string(::getpid()));
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "tool") << "#!/bin/sh\n";
  std::ofstream(dir / "bin" / "data") << "not a program\n";
  fs::permissions(dir / "bin" / "tool", fs::perms::owner_all);
  fs::create_directories(dir / "bin" / "folder");
  const char* saved = std::getenv("PATH");
  const std::string old = saved != nullptr ? saved : "";
  setenv("PATH", ("relative:" + (dir / "bin").string() + ":/usr/bin:/bin").c_str(), 1);
  CHECK(program_on_path("tool") == dir / "bin" / "tool");
  CHECK_FALSE(program_on_path("data"));    // not executable
  CHECK_FALSE(program_on_path("folder"));  // not a file
  CHECK_FALSE(program_on_path("no-such-program-here"));
  CHECK(program_on_path("sh"));  // further along PATH
  CHECK(program_on_path("/opt/given/path") == fs::path("/opt/given/path"));
  setenv("PATH", old.c_str(), 1);
  fs::remove_all(dir);
}
