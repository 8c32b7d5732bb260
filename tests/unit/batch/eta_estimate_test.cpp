// The batch's ETA ("the early ETA is low"): no figure before a grading has
// finished; then whole gradings for every student left, in flight ones included.
#include <catch2/catch.hpp>

#include "batch/eta_estimate.hpp"

using parlab::grader::batch::EtaInputs;
using parlab::grader::batch::eta_seconds;

TEST_CASE("the ETA waits for a finished grading before giving a figure") {
  EtaInputs in{.total = 20, .done = 0, .jobs = 4, .graded = 0, .graded_seconds_sum = 0, .elapsed_seconds = 5};
  CHECK_FALSE(eta_seconds(in).has_value());
  // Three quick rejections: still nothing known about a grading's time.
  in.done = 3;
  in.elapsed_seconds = 6;
  CHECK_FALSE(eta_seconds(in).has_value());
}

TEST_CASE("the ETA counts the jobs in flight as whole gradings, rounds of `jobs`") {
  // 1 graded in 100 s, 2 rejected; 17 left (4 of them in flight) on 4 jobs: 5 rounds.
  EtaInputs in{.total = 20, .done = 3, .jobs = 4, .graded = 1, .graded_seconds_sum = 100, .elapsed_seconds = 60};
  const auto eta = eta_seconds(in);
  REQUIRE(eta.has_value());
  CHECK(*eta == 500.0);
  // The rejections' seconds are not in the mean: a quick one cannot shorten it.
  in.graded = 1;
  in.graded_seconds_sum = 100;
  in.done = 10;  // 9 rejected
  CHECK(*eta_seconds(in) == 100.0 * 3);  // 10 left on 4 jobs: 3 rounds
}

TEST_CASE("the ETA is never below what the rate so far promises, and 0 at the end") {
  // Gradings of 10 s each, but the batch has taken 600 s for 6 (a busy machine).
  EtaInputs in{.total = 12, .done = 6, .jobs = 2, .graded = 6, .graded_seconds_sum = 60, .elapsed_seconds = 600};
  CHECK(*eta_seconds(in) == 600.0);  // 100 s each by the rate, 6 left
  in.done = 12;
  CHECK(*eta_seconds(in) == 0.0);
  // jobs below 1 is taken as 1, never a division by zero.
  EtaInputs one{.total = 2, .done = 1, .jobs = 0, .graded = 1, .graded_seconds_sum = 30, .elapsed_seconds = 30};
  CHECK(*eta_seconds(one) == 30.0);
}
