#pragma once
// When a submission was handed in, for the late policy: from the LMS export (the
// roster's `submitted_at` column), else from the submission's own file times; never
// the time it was graded.
#include <cstdint>
#include <optional>
#include <string>

#include "batch/class_list.hpp"

namespace parlab::grader::batch {

struct SubmissionTime {
  std::optional<std::int64_t> at;  // seconds since the epoch; nothing when unknown
  // Where `at` came from: "roster submitted_at", "newest entry in the archive",
  // "archive file time (...)", "newest file in the folder"; or, when unknown, why
  // ("roster submitted_at is empty").
  std::string source;
};

// A roster with a `submitted_at` column is the authority: an empty cell is unknown
// (a copied file's time is when it was copied, not when it was handed in).
SubmissionTime submission_time(const Student& student);

// Seconds since the epoch -> "2026-03-01T23:59:00Z".
std::string format_utc(std::int64_t seconds);

}  // namespace parlab::grader::batch
