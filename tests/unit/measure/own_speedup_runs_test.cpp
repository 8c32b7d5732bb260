#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "measure/own_speedup_runs.hpp"

using namespace parlab::grader;

namespace {
// A run that notes its name in `order` and takes `wall` seconds, or fails when told.
TimedRun noted(const char* name, double wall, std::vector<std::string>& order, int fail_at = 0) {
  return [name, wall, &order, fail_at, calls = 0](std::string& error) mutable -> std::optional<TimedSample> {
    order.push_back(name);
    if (++calls == fail_at) {
      error = std::string(name) + " crashed";
      return std::nullopt;
    }
    return TimedSample{wall, wall, wall, 1};
  };
}
}  // namespace

TEST_CASE("own-speedup rounds run all four side by side, each in each place, none after itself",
          "[measure][own_speedup]") {
  std::vector<std::string> order;
  const OwnSpeedupWalls w = own_speedup_walls(
      {noted("O", 2.0, order), noted("P", 1.0, order), noted("R", 1.8, order), noted("Q", 0.9, order)}, 4);
  CHECK(order == std::vector<std::string>{"O", "P", "R", "Q", "P", "R", "Q", "O", "R", "Q", "O", "P",
                                          "Q", "O", "P", "R"});
  for (std::size_t i = 1; i < order.size(); ++i) CHECK(order[i] != order[i - 1]);
  CHECK(w.own_s == std::vector<double>{2.0, 2.0, 2.0, 2.0});
  CHECK(w.parallel_s == std::vector<double>{1.0, 1.0, 1.0, 1.0});
  CHECK(w.reference_s.size() == 4);
  CHECK(w.reference_parallel_s.size() == 4);
  CHECK_FALSE(w.own_failed);
  CHECK_FALSE(w.reference_failed);
}

TEST_CASE("own-speedup rounds: a failed run of the submission's leaves the reference's going",
          "[measure][own_speedup]") {
  std::vector<std::string> order;
  // The submission's parallel run fails in the second round.
  const OwnSpeedupWalls w = own_speedup_walls(
      {noted("O", 2.0, order), noted("P", 1.0, order, 2), noted("R", 1.8, order), noted("Q", 0.9, order)}, 3);
  CHECK(order == std::vector<std::string>{"O", "P", "R", "Q", "P", "R", "Q", "R", "Q"});
  CHECK(w.own_failed);
  CHECK(w.parallel_s.empty());  // the pairs' walls stand in: no half-set of rounds
  CHECK(w.reference_s.size() == 3);
  CHECK_FALSE(w.reference_failed);
}

TEST_CASE("own-speedup rounds: the reference's failure ends them and says why",
          "[measure][own_speedup]") {
  std::vector<std::string> order;
  const OwnSpeedupWalls w = own_speedup_walls(
      {noted("O", 2.0, order), noted("P", 1.0, order), noted("R", 1.8, order, 1), noted("Q", 0.9, order)}, 3);
  CHECK(order == std::vector<std::string>{"O", "P", "R"});
  CHECK(w.reference_failed);
  CHECK(w.error == "R crashed");
}

TEST_CASE("own-speedup rounds without the reference's runs time the submission's alone",
          "[measure][own_speedup]") {
  std::vector<std::string> order;
  const OwnSpeedupWalls w = own_speedup_walls({noted("O", 2.0, order), noted("P", 1.0, order), {}, {}}, 2);
  CHECK(order == std::vector<std::string>{"O", "P", "P", "O"});
  CHECK(w.reference_s.empty());
  CHECK(w.reference_parallel_s.empty());
}

TEST_CASE("own-speedup rounds keep the most load other programs put beside any run",
          "[measure][own_speedup][load]") {
  std::vector<std::string> order;
  TimedRun busy_reference = [](std::string&) -> std::optional<TimedSample> {
    TimedSample s{1.8, 1.8, 1.8, 1};
    s.others_cores = 0.9;  // a compile beside it
    return s;
  };
  const OwnSpeedupWalls w = own_speedup_walls(
      {noted("O", 2.0, order), noted("P", 1.0, order), busy_reference, noted("Q", 0.9, order)}, 2);
  CHECK(w.others_cores == Approx(0.9));
  const OwnSpeedupWalls quiet = own_speedup_walls({noted("O", 2.0, order), noted("P", 1.0, order), {}, {}}, 2);
  CHECK(quiet.others_cores < 0);
}
