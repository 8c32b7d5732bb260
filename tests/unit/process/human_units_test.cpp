#include "process/human_units.hpp"

#include <catch2/catch.hpp>

using parlab::grader::process::format_bytes;
using parlab::grader::process::format_seconds;

TEST_CASE("format_seconds drops a zero decimal and keeps one otherwise", "[process][units]") {
  CHECK(format_seconds(10) == "10 s");
  CHECK(format_seconds(1.04) == "1 s");
  CHECK(format_seconds(0.5) == "0.5 s");
  CHECK(format_seconds(2.25) == "2.2 s");
  CHECK(format_seconds(0) == "0 s");
}

TEST_CASE("format_bytes uses the largest binary unit that fits", "[process][units]") {
  CHECK(format_bytes(0) == "0 bytes");
  CHECK(format_bytes(1) == "1 byte");
  CHECK(format_bytes(1023) == "1023 bytes");
  CHECK(format_bytes(1024) == "1 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(64 * 1024) == "64 KiB");
  CHECK(format_bytes(8u << 20) == "8 MiB");
  CHECK(format_bytes(2048ull << 20) == "2 GiB");
}
