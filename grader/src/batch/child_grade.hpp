#pragma once
// Runs one `grade` child process for the batch. Each student is graded by its own
// `grade LAB DIR` process (the same code path as a single grading), so a grader crash
// costs one student, never the batch.
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader::batch {

struct ChildRun {
  int exit_code = -1;       // -1 when it did not exit normally
  int signal = 0;           // the signal that ended it, if any
  bool timed_out = false;   // killed by us after the time cap
  double seconds = 0;
  std::string error_line;   // its last "grade: error: ..." line, for the row's reason
  std::string describe() const;  // "exited with status 3: ...", "killed by signal 9", ...
};

// Starts `exe args...` with stdin from /dev/null and stdout+stderr into `log`, in its
// own process group (so a timeout kills everything it started) and with a parent-death
// signal (so killing the batch, even with kill -9, takes its children along).
// Throws std::runtime_error when the program cannot be started.
ChildRun run_child(const std::filesystem::path& exe, const std::vector<std::string>& args,
                   const std::filesystem::path& log, double timeout_s);

// This program's own executable (/proc/self/exe), to start `grade` children.
std::filesystem::path self_executable();

}  // namespace parlab::grader::batch
