#include "batch/progress_reporter.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "batch/eta_estimate.hpp"
#include "batch/gradebook.hpp"
#include "report/untrusted_text.hpp"

namespace parlab::grader::batch {

ProgressReporter::ProgressReporter(int total, bool terminal, std::ostream& out, int jobs)
    : total_(total), terminal_(terminal), out_(out), jobs_(std::max(1, jobs)) {
  if (terminal_ && total_ > 0) out_ << "\r" << status_line() << std::flush;
}

std::string ProgressReporter::duration_text(double seconds) {
  long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return std::to_string(s) + "s";
  if (s < 3600) return std::to_string(s / 60) + "m" + (s % 60 < 10 ? "0" : "") + std::to_string(s % 60) + "s";
  return std::to_string(s / 3600) + "h" + (s / 60 % 60 < 10 ? "0" : "") + std::to_string(s / 60 % 60) + "m";
}

std::string ProgressReporter::status_line() const {
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " +
                     std::to_string(failed_) + " failed";
  if (done_ < total_) {
    EtaInputs in;
    in.total = total_;
    in.done = done_;
    in.jobs = jobs_;
    in.graded = graded_;
    in.graded_seconds_sum = graded_seconds_sum_;
    in.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::optional<double> eta = eta_seconds(in);
    line += eta ? ", ETA " + duration_text(*eta) : std::string(", ETA estimating...");
  }
  return line;
}

void ProgressReporter::finished(const StudentRecord& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  const bool failed = r.status != StudentStatus::graded;
  if (failed) ++failed_;
  if (!failed) {
    ++graded_;
    graded_seconds_sum_ += r.seconds;
  }
  // The id is a folder or archive name a student chose: no raw controls on the terminal.
  std::string what = untrusted_text::escape_line(r.student.id) + ": " + to_string(r.status);
  // Out of what this grading could earn (68 in the simulator, not the lab's 100).
  if (r.result) {
    const double out_of = r.result->graded_max_score > 0 ? r.result->graded_max_score : r.result->max_score;
    what += ", " + format_points(r.result->score) + "/" + format_points(out_of);
  }
  if (failed) what += " (" + record_reason(r) + ")";
  // A retry is the grader's trouble (a busy machine, a full uid pool): never silent.
  const bool retried = r.attempts > 1;
  if (retried) what += " [after " + std::to_string(r.attempts) + " attempts: the grader retried]";
  if (terminal_) {
    // Only problems and retries scroll by; the live line is redrawn below them.
    out_ << "\r\033[K";
    if (failed || retried) out_ << "grade: batch: " << what << "\n";
    out_ << status_line() << std::flush;
  } else {
    out_ << "grade: batch: " << status_line() << ": " << what << " in "
         << duration_text(r.seconds) << "\n" << std::flush;
  }
}

void ProgressReporter::done() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_ && total_ > 0) out_ << "\r\033[K" << status_line() << "\n" << std::flush;
}

}  // namespace parlab::grader::batch
