#pragma once
// Progress of one grading on stderr (stdout holds the report): the current step, test
// i of n and the elapsed time. On a terminal one status line is redrawn in place every
// second; piped, nothing is added unless -v, which prints one timestamped line per
// step. Notices (a wait for another grading's lock, naming its holder) always print,
// with the time the wait began.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace parlab::grader {

class GradeProgress {
 public:
  // `tests`: the lab's test names in order (for "test 3/27"). `live`: redraw one
  // status line (stderr is a terminal); `verbose`: print every step as a line.
  // `columns`: the terminal's width (0: unknown, 100); the live line stays shorter, so
  // "\r" can erase it (a wrapped line would leave its first part on screen).
  GradeProgress(std::ostream& out, std::vector<std::string> tests, bool live, bool verbose,
                std::size_t columns = 0);
  ~GradeProgress();  // clears the status line
  GradeProgress(const GradeProgress&) = delete;
  GradeProgress& operator=(const GradeProgress&) = delete;

  // A grade_session log line ("building X", "test: NAME", "measuring: NAME").
  void step(const std::string& line);
  // A line always worth showing (grade_session's notice).
  void notice(const std::string& line);
  // Clears the status line for good (before the report is printed).
  void finish();

  // The status text for a log line, e.g. "test 3/27 correctness_small" (public for tests).
  std::string describe(const std::string& line) const;

 private:
  void redraw_locked();
  void tick();
  std::string elapsed_text() const;

  std::ostream& out_;
  std::vector<std::string> tests_;
  bool live_;
  bool verbose_;
  std::size_t columns_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string status_;
  bool drawn_ = false;
  bool done_ = false;
  std::thread ticker_;
};

}  // namespace parlab::grader
