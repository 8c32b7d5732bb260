// A compiler that meets a limit is reported in a student's words, whichever way the
// limit showed (the grader's verdict, or gcc's own message about its cc1plus).
#include <catch2/catch.hpp>

#include "compile/compiler_limits.hpp"

using namespace parlab::grader;

TEST_CASE("gcc builds get an address-space cap, nvcc keeps none but is time-bounded",
          "[build][limits]") {
  CHECK(compiler_limits(BuildTarget::host).address_space_mb > 0);
  CHECK(compiler_limits(BuildTarget::sim).address_space_mb > 0);
  CHECK(compiler_limits(BuildTarget::cuda).address_space_mb == 0);
  for (BuildTarget t : {BuildTarget::host, BuildTarget::cuda, BuildTarget::sim}) {
    CHECK(compiler_limits(t).cpu_seconds > 0);
    CHECK(compiler_limits(t).wall_seconds > 0);
    CHECK(compiler_limits(t).max_processes > 0);
    CHECK(compiler_limits(t).file_size_mb > 0);
  }
}

TEST_CASE("why the compiler stopped, in words", "[build][limits]") {
  const ResourceLimits limits = compiler_limits(BuildTarget::host);
  RunResult run;
  run.outcome = RunOutcome::nonzero_exit;
  run.stderr_text = "cc1plus: out of memory allocating 4294967312 bytes after a total of 610304 bytes\n";
  CHECK_THAT(compiler_stop_reason(run, limits), Catch::StartsWith("the compiler ran out of memory"));

  run.stderr_text = "c++: internal compiler error: CPU time limit exceeded signal terminated program cc1plus\n";
  CHECK_THAT(compiler_stop_reason(run, limits), Catch::StartsWith("the compiler ran out of time"));

  run = {};
  run.outcome = RunOutcome::timeout;
  CHECK_THAT(compiler_stop_reason(run, limits), Catch::Contains("ran out of time (wall-clock"));
  run.outcome = RunOutcome::memory_limit;
  CHECK_THAT(compiler_stop_reason(run, limits), Catch::Contains("ran out of memory"));

  run = {};
  run.outcome = RunOutcome::nonzero_exit;
  run.stderr_text = "c++: fatal error: cannot execute '/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus': "
                    "vfork: Resource temporarily unavailable\n";
  CHECK_THAT(compiler_stop_reason(run, limits), Catch::Contains("process limit (64)"));

  run = {};
  run.outcome = RunOutcome::not_run;
  run.reason = "bubblewrap could not start";
  CHECK(compiler_stop_reason(run, limits) == "the compiler stopped: bubblewrap could not start");

  // An ordinary compile error is the diagnostics' business.
  run = {};
  run.outcome = RunOutcome::nonzero_exit;
  run.stderr_text = "a.cpp:1:1: error: expected ';'\n";
  CHECK(compiler_stop_reason(run, limits).empty());
  // Also one that names std::bad_alloc (seen: a header that broke <new> for the rest);
  // an uncaught one, in the runtime's words, is the memory limit.
  run.stderr_text = "/usr/include/c++/12/new:57:3: error: 'std::bad_alloc' has not been declared\n";
  CHECK(compiler_stop_reason(run, limits).empty());
  run.stderr_text = "terminate called after throwing an instance of 'std::bad_alloc'\n";
  CHECK_THAT(compiler_stop_reason(run, limits), Catch::StartsWith("the compiler ran out of memory"));
}
