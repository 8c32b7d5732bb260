#include "process/output_capture.hpp"

#include <catch2/catch.hpp>
#include <string>

using parlab::grader::process::OutputCapture;

TEST_CASE("OutputCapture keeps everything below the limit", "[process][output]") {
  OutputCapture capture(10);
  capture.append("hello", 5);
  capture.append("world", 5);
  CHECK(capture.text() == "helloworld");
  CHECK_FALSE(capture.truncated());
  CHECK(capture.total_bytes() == 10);
}

TEST_CASE("OutputCapture keeps the first bytes and counts the rest", "[process][output]") {
  OutputCapture capture(4);
  capture.append("abc", 3);
  capture.append("defgh", 5);
  capture.append("ijk", 3);
  CHECK(capture.text() == "abcd");
  CHECK(capture.truncated());
  CHECK(capture.total_bytes() == 11);
}

TEST_CASE("OutputCapture with a zero limit only counts", "[process][output]") {
  OutputCapture capture(0);
  capture.append("abc", 3);
  CHECK(capture.text().empty());
  CHECK(capture.truncated());
  CHECK(capture.total_bytes() == 3);
}
