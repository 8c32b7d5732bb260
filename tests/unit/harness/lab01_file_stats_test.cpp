// The lab01 reference compute_file_stats on small hand-written files whose statistics
// were worked out by hand: one case per rule of labs/lab01-multiprocessing/api.hpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "api.hpp"
#include "test_files.hpp"
#include "what_contains.hpp"

using lab01::compute_file_stats;
using lab01::FileStats;
using parlab::test::TempDir;
using parlab::test::WhatContains;
using parlab::test::write_text;

namespace {

FileStats stats_of_text(const std::string& text) {
  TempDir dir;
  write_text(dir / "f.csv", text);
  return compute_file_stats((dir / "f.csv").string());
}

void check_all_zero_values(const FileStats& s) {
  CHECK(s.rows == 0);
  CHECK(s.min == 0);
  CHECK(s.max == 0);
  CHECK(s.mean == 0);
  CHECK(s.stddev == 0);
}

}  // namespace

TEST_CASE("lab01 reference: every kind of malformed row is counted and skipped", "[lab01]") {
  const FileStats s = stats_of_text(
      "timestamp,sensor,value\n"
      "1,0,1.5\n"        // ok
      "2,1,n/a\n"        // not a number
      "3,2,\n"           // empty value
      "\n"               // blank: skipped, not malformed
      "4,0,2.5C\n"       // trailing junk
      "5,1,nan\n"        // not finite
      "6,2,inf\n"        // not finite
      "7,0\n"            // missing column
      "8,1,3.5,extra\n"  // extra column
      " \t \n"           // blank (spaces and tabs only)
      "9,2, -4.0 \r\n"   // ok: fields are trimmed, a trailing \r is dropped
      "10,0,1e1\n"       // ok: exponent notation
      "11,1,1e999\n"     // too large for a double
      "12,2,3");         // ok, and no newline at the end of the file
  // Values 1.5, -4, 10, 3: mean 2.625; squared deviations sum to 99.6875.
  CHECK(s.rows == 4);
  CHECK(s.malformed == 8);
  CHECK(s.min == -4.0);
  CHECK(s.max == 10.0);
  CHECK(s.mean == 2.625);
  CHECK(s.stddev == Approx(std::sqrt(99.6875 / 4)).epsilon(1e-14));
}

TEST_CASE("lab01 reference: the file name is the path as given", "[lab01]") {
  TempDir dir;
  write_text(dir / "x.csv", "timestamp,sensor,value\n1,0,2\n");
  const std::string path = (dir / "x.csv").string();
  CHECK(compute_file_stats(path).file == path);
}

TEST_CASE("lab01 reference: a single row has stddev 0", "[lab01]") {
  const FileStats s = stats_of_text("timestamp,sensor,value\n1,0,-7.25\n");
  CHECK(s.rows == 1);
  CHECK(s.min == -7.25);
  CHECK(s.max == -7.25);
  CHECK(s.mean == -7.25);
  CHECK(s.stddev == 0);
}

TEST_CASE("lab01 reference: files without rows give zeros, never NaN", "[lab01]") {
  SECTION("empty file (0 bytes)") {
    const FileStats s = stats_of_text("");
    check_all_zero_values(s);
    CHECK(s.malformed == 0);
  }
  SECTION("header only") {
    const FileStats s = stats_of_text("timestamp,sensor,value\n");
    check_all_zero_values(s);
    CHECK(s.malformed == 0);
  }
  SECTION("only malformed rows") {
    const FileStats s = stats_of_text("timestamp,sensor,value\n1,2,x\n3,4\n\n5,6,nan\n");
    check_all_zero_values(s);
    CHECK(s.malformed == 3);
  }
}

TEST_CASE("lab01 reference: Windows line ends", "[lab01]") {
  const FileStats s = stats_of_text("timestamp,sensor,value\r\n1,0,2\r\n2,0,4\r\n");
  CHECK(s.rows == 2);
  CHECK(s.malformed == 0);
  CHECK(s.mean == 3);
  CHECK(s.stddev == 1);
}

TEST_CASE("lab01 reference: stddev stays accurate far from zero", "[lab01]") {
  // mean(x^2) - mean(x)^2 would lose every digit here; the population stddev of
  // {0, 1, 2} + 1e9 is sqrt(2/3).
  const FileStats s =
      stats_of_text("timestamp,sensor,value\n1,0,1000000000\n2,0,1000000001\n3,0,1000000002\n");
  CHECK(s.mean == 1000000001.0);
  CHECK(s.stddev == Approx(std::sqrt(2.0 / 3.0)).epsilon(1e-9));
}

TEST_CASE("lab01 reference: values parse exactly (correctly rounded)", "[lab01]") {
  const FileStats s = stats_of_text("timestamp,sensor,value\n1,0,0.1\n2,0,23.457\n");
  CHECK(s.min == 0.1);
  CHECK(s.max == 23.457);
}

TEST_CASE("lab01 reference: a missing file is a runtime_error naming it", "[lab01]") {
  TempDir dir;
  const std::string path = (dir / "nope.csv").string();
  CHECK_THROWS_MATCHES(compute_file_stats(path), std::runtime_error, WhatContains("nope.csv"));
}
