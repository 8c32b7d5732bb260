#include <catch2/catch.hpp>

#include "process/bwrap_status.hpp"

using parlab::grader::process::BwrapStatus;
using parlab::grader::process::parse_bwrap_status;

TEST_CASE("bwrap's status lines give the sandbox init's pid", "[process][bwrap]") {
  BwrapStatus status = parse_bwrap_status(
      "{ \"child-pid\": 4242, \"cgroup-namespace\": 1, \"ipc-namespace\": 2 }\n"
      "{ \"exit-code\": 0 }\n");
  CHECK(status.child_started);
  CHECK(status.child_pid == 4242);
}

TEST_CASE("No child-pid means the sandbox never started", "[process][bwrap]") {
  CHECK_FALSE(parse_bwrap_status("").child_started);
  CHECK_FALSE(parse_bwrap_status("{ \"exit-code\": 1 }\n").child_started);
  CHECK(parse_bwrap_status("").child_pid == -1);
}
