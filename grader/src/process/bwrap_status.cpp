#include "process/bwrap_status.hpp"

#include <chrono>
#include <cstdlib>

#include "process/process_group.hpp"

namespace parlab::grader::process {

// bwrap writes a fixed shape ({ "child-pid": 123 }); a full JSON parser is not
// needed to find one number after one key.
BwrapStatus parse_bwrap_status(const std::string& json_lines) {
  static const std::string kKey = "\"child-pid\"";
  BwrapStatus status;
  std::size_t key = json_lines.find(kKey);
  if (key == std::string::npos) return status;
  status.child_started = true;
  std::size_t colon = json_lines.find(':', key + kKey.size());
  if (colon == std::string::npos) return status;
  long pid = std::strtol(json_lines.c_str() + colon + 1, nullptr, 10);
  if (pid > 0) status.child_pid = static_cast<pid_t>(pid);
  return status;
}

void reap_sandbox_init(const BwrapStatus& status) {
  // It is already exiting (or killed with bwrap through --die-with-parent).
  reap_if_our_child(status.child_pid, std::chrono::milliseconds(1000));
}

}  // namespace parlab::grader::process
