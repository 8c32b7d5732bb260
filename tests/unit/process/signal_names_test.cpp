#include "process/signal_names.hpp"

#include <signal.h>

#include <catch2/catch.hpp>

using parlab::grader::process::signal_explanation;
using parlab::grader::process::signal_name;

TEST_CASE("signal_name gives the conventional SIG names", "[process][signals]") {
  CHECK(signal_name(SIGSEGV) == "SIGSEGV");
  CHECK(signal_name(SIGABRT) == "SIGABRT");
  CHECK(signal_name(SIGKILL) == "SIGKILL");
  CHECK(signal_name(SIGXCPU) == "SIGXCPU");
  CHECK(signal_name(SIGXFSZ) == "SIGXFSZ");
}

TEST_CASE("signal_name falls back to the number for unnamed signals", "[process][signals]") {
  CHECK(signal_name(SIGRTMIN + 3) == "SIG" + std::to_string(SIGRTMIN + 3));
  CHECK(signal_explanation(SIGRTMIN + 3).empty());
}

TEST_CASE("signal_explanation points at the likely bug", "[process][signals]") {
  CHECK(signal_explanation(SIGSEGV) ==
        "segmentation fault: invalid memory access, e.g. a null or dangling pointer, or "
        "out-of-bounds index");
  CHECK_THAT(signal_explanation(SIGFPE), Catch::Contains("division by zero"));
  CHECK_THAT(signal_explanation(SIGABRT), Catch::Contains("assert"));
  CHECK_THAT(signal_explanation(SIGBUS), Catch::Contains("misaligned"));
  CHECK_THAT(signal_explanation(SIGILL), Catch::Contains("illegal instruction"));
}
