#pragma once
// A course's late-submission rule and what it does to one score (pure arithmetic).
// Times are seconds since the epoch (UTC): the submission time comes from the archive
// or the LMS export, never from when the grading ran.
#include <cstdint>
#include <optional>
#include <string>

namespace parlab::grader::batch {

struct LatePolicy {
  std::int64_t grace_seconds = 0;           // late by at most this: no penalty
  double penalty_percent_per_day = 0;       // per started day late, counted from the due time
  double cap_percent = 100;                 // the penalty never exceeds this
  std::optional<std::int64_t> cutoff_seconds;  // later than due + this: not accepted (0 points)
};

struct LateOutcome {
  std::int64_t late_seconds = 0;  // 0 when on time (never negative)
  int days_late = 0;              // started days, 0 within the grace period
  double penalty_percent = 0;     // of the raw score
  bool past_cutoff = false;
  double final_score = 0;
  std::string reason;             // empty when nothing was deducted
};

// The outcome for a submission at `submitted` due at `due` (extensions already added).
// Exactly at the due time is on time; exactly at the cutoff is still accepted.
LateOutcome apply_late_policy(const LatePolicy& policy, std::int64_t due, std::int64_t submitted,
                              double raw_score);

// "2 days 3 h 5 min": a lateness for the reports.
std::string describe_lateness(std::int64_t seconds);

}  // namespace parlab::grader::batch
