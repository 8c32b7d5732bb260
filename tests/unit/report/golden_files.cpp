#include "golden_files.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "util/atomic_write.hpp"

namespace parlab::grader::testing {
namespace {

std::filesystem::path golden_path(const std::string& file_name) {
  return std::filesystem::path(PARLAB_TESTS_DIR) / "golden" / "report" / file_name;
}

bool updating_golden() {
  const char* value = std::getenv("PARLAB_UPDATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

// "line N" of the first difference, so a failure points at the changed line.
std::string first_difference(const std::string& expected, const std::string& actual) {
  std::istringstream e(expected);
  std::istringstream a(actual);
  std::string el;
  std::string al;
  for (int line = 1;; ++line) {
    const bool has_e = static_cast<bool>(std::getline(e, el));
    const bool has_a = static_cast<bool>(std::getline(a, al));
    if (!has_e && !has_a) return "only in line endings";
    if (!has_e || !has_a || el != al) {
      return "line " + std::to_string(line) + ":\n  golden: " + (has_e ? el : "<end>") +
             "\n  actual: " + (has_a ? al : "<end>");
    }
  }
}

}  // namespace

void check_golden(const std::string& file_name, const std::string& actual) {
  const std::filesystem::path path = golden_path(file_name);
  if (updating_golden()) {
    write_file_atomically(path, actual);
    WARN("rewrote golden file " << path.string());
    return;
  }
  std::ifstream in(path, std::ios::binary);
  INFO("golden file " << path.string() << " (PARLAB_UPDATE_GOLDEN=1 rewrites it)");
  REQUIRE(in.good());
  std::ostringstream expected;
  expected << in.rdbuf();
  INFO("first difference at " << first_difference(expected.str(), actual));
  CHECK(expected.str() == actual);
}

}  // namespace parlab::grader::testing
