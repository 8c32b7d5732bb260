#pragma once
// Watches one started child until it ends: reads its stdout and stderr without
// blocking (poll), enforces the wall-clock and output limits by killing its
// process group, reaps it, then kills and reaps whatever it left behind.
#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "process/output_capture.hpp"
#include "process/unique_fd.hpp"

namespace parlab::grader::process {

// report_limit: more than MonitorLimits::report_bytes through the simulator's report channel.
enum class KillCause { none, timeout, output_limit, report_limit };

struct MonitorLimits {
  double wall_seconds = 10;
  // A tree whose processes are all blocked (pipes, waits) using no CPU time for this
  // long is stopped before the wall limit: it cannot finish. 0: never.
  double deadlock_seconds = 3;
  std::uint64_t output_bytes = 64 * 1024;     // kept per stream
  std::uint64_t output_kill_bytes = 8 << 20;  // stdout + stderr together
  // The simulator's report channel: kept whole up to this; a run that writes more there is
  // stopped as over the output limit (its report could not be read whole anyway).
  std::uint64_t report_bytes = 16 << 20;
  // Called about every `tick` while the child runs (a performance run's sampler).
  std::function<void()> on_tick;
  std::chrono::milliseconds tick{50};
};

struct MonitoredChild {
  pid_t pid = -1;
  std::chrono::steady_clock::time_point started;
  UniqueFd stdout_read;
  UniqueFd stderr_read;
  UniqueFd status_read;  // bubblewrap's --json-status-fd, or empty
  UniqueFd report_read;  // the simulator's report channel (settings_file.hpp), or empty
};

struct ChildEnd {
  int wait_status = 0;      // as from waitpid()
  double wall_seconds = 0;  // from `started` to the exit being seen
  double cpu_seconds = 0;   // user + system, including its waited-for children
  KillCause killed_for = KillCause::none;
  double killed_after_seconds = 0;
  OutputCapture stdout_capture{0};
  OutputCapture stderr_capture{0};
  std::string status_text;  // what came through status_read (capped)
  // What came through report_read, kept up to MonitorLimits::report_bytes.
  OutputCapture report_capture{0};
  // What the process tree was doing when it was killed for time (stuck_tree.hpp), and
  // whether it was stopped early because every process was blocked (a deadlock).
  std::string stuck_diagnosis;
  bool stopped_as_deadlock = false;
};

ChildEnd monitor_child(MonitoredChild child, const MonitorLimits& limits);

}  // namespace parlab::grader::process
