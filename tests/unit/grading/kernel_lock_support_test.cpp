#include "grading/kernel_lock_support.hpp"

#include <catch2/catch_test_macros.hpp>

using namespace parlab::grader;

TEST_CASE("a kernel with every lock feature adds no note", "[lock]") {
  CHECK(lock_gap_note({}).empty());
}

TEST_CASE("the note names each missing feature and where the docs explain it", "[lock]") {
  const std::string note = lock_gap_note({"mseal (Linux 6.10)", "Landlock (Linux 5.13, enabled)"});
  CHECK(note.find("lacks mseal (Linux 6.10), Landlock (Linux 5.13, enabled):") != std::string::npos);
  CHECK(note.find("docs/sandbox.md") != std::string::npos);
}

TEST_CASE("the probe names only the features it knows", "[lock]") {
  for (const std::string& m : missing_lock_features())
    CHECK((m == "mseal (Linux 6.10)" || m == "Landlock (Linux 5.13, enabled)"));
}
