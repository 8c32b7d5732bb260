#pragma once
// The record a stopped simulator leaves on its sealed report channel before it exits
// (docs/simulation-design.md, "What the runtime and the grader share"): which stop
// (its exit status, parlab_sim/exit_codes.hpp), where (the faulting instruction's
// offset in the program, for the grader to name the line) and, for host code that
// touched device memory, whether it read or wrote. Facts only: the grader words the
// test's message from them (grading/simulator_stop). The sentence the runtime prints on
// stderr is for a person running the program by hand; the grader reads none of it, so a
// program that prints a forged report and exits with a stop's status is graded as a
// plain exit with that status.
//
// Written from a signal handler, so formatting allocates nothing and calls nothing.
#include <cstddef>
#include <cstdint>

namespace parlab_sim {

// The report channel's name for stop records, in their seal, and their line tag.
inline constexpr char kStopChannelName[] = "stops";
inline constexpr char kStopChannelTag = 'S';

enum class HostAccess : std::uint8_t { none, read, write };

struct StopRecord {
  int exit_code = 0;
  std::uint64_t code_offset = 0;  // 0: no instruction of the program to name
  HostAccess host_access = HostAccess::none;
  // Whether the process that stopped is the one the grader started (the one that took
  // the key), not a child it forked: a child's stop is not the run's, so a program that
  // forks a child to stop at a feature the simulator does not run, then exits with that
  // status itself, is not that stop.
  bool main_process = false;
};

// The payload's keys (one JSON object):
// {"exit_code":87,"code_offset":107187,"host_access":"read","process":"main"}.
inline constexpr char kStopExitCodeKey[] = "exit_code";
inline constexpr char kStopCodeOffsetKey[] = "code_offset";
inline constexpr char kStopHostAccessKey[] = "host_access";
inline constexpr char kStopProcessKey[] = "process";
inline constexpr char kStopMainProcess[] = "main";
inline constexpr char kStopForkedProcess[] = "fork";

inline const char* host_access_name(HostAccess access) {
  switch (access) {
    case HostAccess::read: return "read";
    case HostAccess::write: return "write";
    case HostAccess::none: break;
  }
  return "none";
}

// Room for the longest payload (a 20-digit offset, a negative status) and its NUL.
inline constexpr std::size_t kStopRecordCapacity = 128;

// The decimal digits of `value`, most significant first, in `digits`; returns how many.
// Signal-safe (the runtime's sealed stop line uses it too).
inline std::size_t decimal_digits(std::uint64_t value, char (&digits)[20]) {
  char reversed[20];
  std::size_t n = 0;
  do {
    reversed[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  for (std::size_t i = 0; i < n; ++i) digits[i] = reversed[n - 1 - i];
  return n;
}

namespace stop_record_detail {

inline std::size_t put(char* out, std::size_t at, const char* text) {
  while (*text != '\0' && at + 1 < kStopRecordCapacity) out[at++] = *text++;
  return at;
}

inline std::size_t put_decimal(char* out, std::size_t at, std::uint64_t value) {
  char digits[20];
  const std::size_t n = decimal_digits(value, digits);
  for (std::size_t i = 0; i < n && at + 1 < kStopRecordCapacity; ++i) out[at++] = digits[i];
  return at;
}

}  // namespace stop_record_detail

// Writes the record's payload into `out` (NUL-terminated) and returns its length.
inline std::size_t format_stop_record(const StopRecord& record, char (&out)[kStopRecordCapacity]) {
  using namespace stop_record_detail;
  std::size_t at = put(out, 0, "{\"");
  at = put(out, at, kStopExitCodeKey);
  at = put(out, at, "\":");
  if (record.exit_code < 0) at = put(out, at, "-");
  const std::int64_t code = record.exit_code;
  at = put_decimal(out, at, static_cast<std::uint64_t>(code < 0 ? -code : code));
  at = put(out, at, ",\"");
  at = put(out, at, kStopCodeOffsetKey);
  at = put(out, at, "\":");
  at = put_decimal(out, at, record.code_offset);
  at = put(out, at, ",\"");
  at = put(out, at, kStopHostAccessKey);
  at = put(out, at, "\":\"");
  at = put(out, at, host_access_name(record.host_access));
  at = put(out, at, "\",\"");
  at = put(out, at, kStopProcessKey);
  at = put(out, at, "\":\"");
  at = put(out, at, record.main_process ? kStopMainProcess : kStopForkedProcess);
  at = put(out, at, "\"}");
  out[at] = '\0';
  return at;
}

}  // namespace parlab_sim
