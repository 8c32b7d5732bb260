#pragma once
// What bubblewrap reports on its --json-status-fd: one JSON object per event,
// { "child-pid": N } once the sandbox's first process exists (N is its pid as
// the grader sees it), later { "exit-code": N }. No "child-pid" means bubblewrap
// failed while setting up, before anything of the program ran.
#include <sys/types.h>

#include <string>

namespace parlab::grader::process {

struct BwrapStatus {
  bool child_started = false;
  pid_t child_pid = -1;  // the sandbox's init (pid 1 inside), when started
};

BwrapStatus parse_bwrap_status(const std::string& json_lines);

// bwrap exits as soon as its sandbox init reports the program's status, so the
// init, exiting a moment later, is orphaned to the grader (the child subreaper,
// see process_group.hpp). Reaps it; returns at once if it is not ours.
void reap_sandbox_init(const BwrapStatus& status);

}  // namespace parlab::grader::process
