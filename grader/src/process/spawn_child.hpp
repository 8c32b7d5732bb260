#pragma once
// Starting a child with Boost.Process: stdin from /dev/null, stdout and stderr
// into pipes, exactly the given environment, and the pre-exec steps of
// child_setup.hpp. The only file that knows about Boost.Process.
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "process/child_setup.hpp"
#include "process/unique_fd.hpp"

namespace parlab::grader::process {

struct SpawnedChild {
  pid_t pid = -1;        // also its process group and session id (setsid)
  UniqueFd stdout_read;  // read ends, close-on-exec
  UniqueFd stderr_read;
};

// argv[0] of the child is `program`. Throws std::runtime_error naming `program`
// when it cannot be started (a setup step or execve failed): that is a grader
// error, not the student's outcome. The child is not reaped here; the caller owns it.
SpawnedChild spawn_child(const std::string& program, const std::vector<std::string>& args,
                         const std::map<std::string, std::string>& env, const ChildSetupPlan& plan);

}  // namespace parlab::grader::process
