#pragma once
// Student code may fork(). A worker process that returns from the student's function
// instead of ending with _exit() would carry on in the driver and write a second set
// of outputs over the parent's. The harness remembers which process owns the outputs
// and stops any other process that tries to write them.
#include <sys/types.h>
#include <unistd.h>

#include <cstdio>

namespace parlab::harness::detail {

inline pid_t output_owner_pid = 0;

inline void remember_output_owner() { output_owner_pid = ::getpid(); }

inline void stop_if_forked_child() {
  if (output_owner_pid == 0 || ::getpid() == output_owner_pid) return;
  std::fprintf(stderr,
               "parlab: a forked child process returned from the student's code into the "
               "driver; end worker processes with _exit() so only the parent writes results\n");
  std::fflush(stderr);
  ::_exit(1);
}

}  // namespace parlab::harness::detail
