#pragma once
// Other gradings' processes kept out of a run's sight where bubblewrap (and its pid
// namespace) is missing: the child, still root, enters a mount namespace of its own
// and mounts a fresh /proc with hidepid=invisible there, so it sees only processes
// of its own uid: not the grader, not other gradings and their command lines.
// Needs a root grader that may mount, and kernel 5.8 or later (before that, /proc's
// options were shared by every mount of it: remounting would change the host's).
#include <optional>
#include <string>

namespace parlab::grader::process {

// Whether the child can do it here, tried once per process in a forked helper
// (cached). Empty when it works; else why not, for the report.
const std::optional<std::string>& hidden_processes_problem();

// In the forked child, before the privilege drop. Async-signal-safe.
bool hide_other_processes() noexcept;

}  // namespace parlab::grader::process
