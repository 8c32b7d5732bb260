#include "batch/late_policy.hpp"

#include <algorithm>
#include <sstream>

namespace parlab::grader::batch {
namespace {

constexpr std::int64_t kDay = 24 * 60 * 60;

std::string percent(double value) {
  std::ostringstream out;
  out << value << " %";
  return out.str();
}

}  // namespace

std::string describe_lateness(std::int64_t seconds) {
  const std::int64_t minutes = (seconds + 59) / 60;  // a started minute counts
  std::ostringstream out;
  if (minutes >= 24 * 60) out << minutes / (24 * 60) << (minutes >= 48 * 60 ? " days " : " day ");
  if (minutes % (24 * 60) >= 60) out << (minutes % (24 * 60)) / 60 << " h ";
  out << minutes % 60 << " min";
  return out.str();
}

LateOutcome apply_late_policy(const LatePolicy& policy, std::int64_t due, std::int64_t submitted,
                              double raw_score) {
  LateOutcome out;
  out.late_seconds = std::max<std::int64_t>(0, submitted - due);
  out.final_score = raw_score;
  if (out.late_seconds == 0) return out;
  const std::string late = "submitted " + describe_lateness(out.late_seconds) + " late";
  if (policy.cutoff_seconds && out.late_seconds > *policy.cutoff_seconds) {
    out.past_cutoff = true;
    out.penalty_percent = 100;
    out.final_score = 0;
    out.reason = late + ", after the hard cutoff (" + describe_lateness(*policy.cutoff_seconds) +
                 " after the due time): not accepted, 0 points";
    return out;
  }
  if (out.late_seconds <= policy.grace_seconds) return out;  // forgiven: no reason to give
  out.days_late = static_cast<int>((out.late_seconds + kDay - 1) / kDay);
  out.penalty_percent = std::min(policy.cap_percent, out.days_late * policy.penalty_percent_per_day);
  out.penalty_percent = std::clamp(out.penalty_percent, 0.0, 100.0);
  out.final_score = raw_score * (1 - out.penalty_percent / 100);
  if (out.penalty_percent > 0) {
    out.reason = late + " (" + std::to_string(out.days_late) + " started day" +
                 (out.days_late > 1 ? "s" : "") + " at " + percent(policy.penalty_percent_per_day) +
                 " a day" +
                 (out.penalty_percent < out.days_late * policy.penalty_percent_per_day
                      ? ", capped at " + percent(policy.cap_percent)
                      : "") +
                 "): " + percent(out.penalty_percent) + " of the score deducted";
  }
  return out;
}

}  // namespace parlab::grader::batch
