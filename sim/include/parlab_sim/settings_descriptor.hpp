#pragma once
// How the grader hands a run its simulator settings: not through the environment, which
// the submission can read, but through this inherited descriptor, a write-protected
// memory file of NAME=value lines (docs/sandbox.md). The runtime reads and closes it at
// start-up, before any code of the submission runs. The number is no secret.

namespace parlab_sim {

inline constexpr int kSettingsDescriptor = 1000;

// Where a graded run's sealed report lines go: the sending end of a one-way socket of
// whole records (SOCK_SEQPACKET) that the grader reads while the run goes on. A line
// sent there cannot be taken back (a socket, unlike a pipe, cannot be reopened for
// reading through /proc/self/fd), so a submission that learns the report key can add
// lines (which break the series, or only add findings and cost) but never remove the
// runtime's. The runtime's seccomp filter refuses to close it or put anything else at
// this number.
inline constexpr int kReportDescriptor = 1001;

}  // namespace parlab_sim
