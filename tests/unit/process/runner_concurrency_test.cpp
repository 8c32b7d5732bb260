// run() from several threads at once: each run gets its own output, and a quick
// run is not held up by a slow one beside it (no pipe end leaks between them).
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::test;

TEST_CASE("Two threads run at once: own outputs, no waiting on each other",
          "[process][concurrency][slow]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir slow_scratch;
  ScratchDir quick_scratch;

  RunResult slow;
  std::thread slow_thread([&] {
    RunRequest request = fake_request("sleep_forever", slow_scratch);
    request.limits.wall_seconds = 1;
    slow = runner.run(request);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // let it start first

  std::vector<RunResult> quick;
  std::vector<double> quick_seconds;
  for (int i = 0; i < 4; ++i) {
    RunRequest request = fake_request("ok_echo", quick_scratch);
    request.work_dir = quick_scratch / ("run" + std::to_string(i));
    request.args = {"quick-" + std::to_string(i)};
    auto start = std::chrono::steady_clock::now();
    quick.push_back(runner.run(request));
    quick_seconds.push_back(seconds_since(start));
  }
  slow_thread.join();

  CHECK(slow.outcome == RunOutcome::timeout);
  CHECK(slow.stdout_text == "sleeping\n");
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(quick[i].outcome == RunOutcome::ok);
    CHECK(quick[i].stdout_text == "arg: quick-" + std::to_string(i) + "\ngreeting: (unset)\n");
    CHECK(quick_seconds[i] < 0.8);  // well before the slow run's 1 s timeout
  }
}

TEST_CASE("Many short runs on two threads all succeed", "[process][concurrency]") {
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  CAPTURE(runner.sandbox_name());
  ScratchDir scratch;
  std::vector<RunResult> results[2];
  auto worker = [&](int id) {
    for (int i = 0; i < 5; ++i) {
      RunRequest request = fake_request("exit_code", scratch);
      request.work_dir = scratch / ("t" + std::to_string(id) + "-" + std::to_string(i));
      request.args = {std::to_string(10 * id + i)};
      results[id].push_back(runner.run(request));
    }
  };
  std::thread first(worker, 0);
  std::thread second(worker, 1);
  first.join();
  second.join();
  for (int id = 0; id < 2; ++id) {
    for (int i = 0; i < 5; ++i) {
      int expected = 10 * id + i;
      CAPTURE(id, i);
      REQUIRE(results[id].size() == 5);
      CHECK(results[id][i].exit_code == expected);
      CHECK(results[id][i].outcome == (expected == 0 ? RunOutcome::ok : RunOutcome::nonzero_exit));
    }
  }
}
