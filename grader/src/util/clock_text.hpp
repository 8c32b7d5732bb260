#pragma once
// The current time as text, for results and records.
#include <string>

namespace parlab::grader {

// "2026-11-24T08:12:03Z" (UTC).
std::string now_iso8601();

}  // namespace parlab::grader
