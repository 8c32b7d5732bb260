#pragma once
// A ProcessRunner that runs nothing (ninja's habit): `act` plays the child, writing
// whatever files it likes into the run folder, and the result says it exited 0 after
// `wall_seconds`.
#include <functional>
#include <string>

#include "process/process_runner.hpp"

namespace parlab::grader::testing {

class FakeRunner : public ProcessRunner {
 public:
  std::function<void(const RunRequest&)> act;
  // When set, the whole answer (act is not called).
  std::function<RunResult(const RunRequest&)> respond;
  double wall_seconds = 0.5;
  RunOutcome outcome = RunOutcome::ok;
  int runs = 0;

  RunResult run(const RunRequest& request) override {
    ++runs;
    if (respond) return respond(request);
    if (act) act(request);
    RunResult r;
    r.outcome = outcome;
    r.exit_code = outcome == RunOutcome::ok ? 0 : 1;
    r.wall_seconds = wall_seconds;
    r.cpu_seconds = wall_seconds;
    if (outcome != RunOutcome::ok) r.reason = "exited with status 1";
    return r;
  }
  std::string sandbox_name() const override { return "fake"; }
};

}  // namespace parlab::grader::testing
