#pragma once
// The batch's time-left estimate, a pure function so it can be tested without clocks.
// An early estimate must not be low: the first students to finish are the
// quick ones (rejected archives, build failures), which say nothing about how long a
// real grading takes, so no figure is given until a grading has run to its end.
#include <optional>

namespace parlab::grader::batch {

struct EtaInputs {
  int total = 0;                   // students in this batch
  int done = 0;                    // finished, whatever their status
  int jobs = 1;                    // gradings at once
  int graded = 0;                  // finished with a grading that ran (status graded)
  double graded_seconds_sum = 0;   // those gradings' own durations
  double elapsed_seconds = 0;      // wall time since the batch started
};

// Seconds left, or nullopt while nothing graded has finished yet ("estimating...").
// Every student not finished counts as a whole typical grading, those in flight too
// (their elapsed part is not subtracted: an estimate errs long, not short), run
// `jobs` at a time; never less than the rate so far promises.
std::optional<double> eta_seconds(const EtaInputs& in);

}  // namespace parlab::grader::batch
