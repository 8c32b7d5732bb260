#include "cli/grade_progress.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "report/report_text.hpp"

namespace parlab::grader {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string wall_clock_now() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%H:%M:%S", &local);
  return buffer;
}

}  // namespace

GradeProgress::GradeProgress(std::ostream& out, std::vector<std::string> tests, bool live,
                             bool verbose, std::size_t columns)
    : out_(out), tests_(std::move(tests)), live_(live), verbose_(verbose),
      columns_(columns == 0 ? 100 : columns) {
  if (live_) ticker_ = std::thread([this] { tick(); });
}

GradeProgress::~GradeProgress() { finish(); }

std::string GradeProgress::describe(const std::string& line) const {
  for (const char* prefix : {"test: ", "measuring: "}) {
    if (!starts_with(line, prefix)) continue;
    const std::string name = line.substr(std::string(prefix).size());
    const auto it = std::find(tests_.begin(), tests_.end(), name);
    const std::string verb = starts_with(line, "test") ? "testing" : "measuring";
    if (it == tests_.end()) return verb + " " + name;
    return verb + " " + name + " (test " + std::to_string(it - tests_.begin() + 1) + "/" +
           std::to_string(tests_.size()) + ")";
  }
  return line;
}

std::string GradeProgress::elapsed_text() const {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::steady_clock::now() - start_).count();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%lld:%02lld", static_cast<long long>(seconds / 60),
                static_cast<long long>(seconds % 60));
  return buffer;
}

void GradeProgress::redraw_locked() {
  if (!live_ || done_ || status_.empty()) return;
  std::string text = "grade: [" + elapsed_text() + "] " + status_;
  // One column short of the terminal: a line as wide as it may wrap the cursor.
  text = report_text::first_line_fitted(text, columns_ > 1 ? columns_ - 1 : 1);
  out_ << "\r\x1b[K" << text << std::flush;
  drawn_ = true;
}

void GradeProgress::step(const std::string& line) {
  std::lock_guard lock(mutex_);
  status_ = describe(line);
  if (verbose_) {
    if (drawn_) out_ << "\r\x1b[K";
    out_ << "grade: [" << elapsed_text() << "] " << status_ << "\n" << std::flush;
    drawn_ = false;
  }
  redraw_locked();
}

void GradeProgress::notice(const std::string& line) {
  std::lock_guard lock(mutex_);
  if (drawn_) out_ << "\r\x1b[K";
  out_ << "grade: " << line << " (since " << wall_clock_now() << ")\n" << std::flush;
  drawn_ = false;
  if (starts_with(line, "waiting")) status_ = "waiting for the lock (see above)";
  redraw_locked();
}

void GradeProgress::finish() {
  {
    std::lock_guard lock(mutex_);
    if (done_) return;
    if (drawn_) out_ << "\r\x1b[K" << std::flush;
    drawn_ = false;
    done_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void GradeProgress::tick() {
  std::unique_lock lock(mutex_);
  while (!done_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    redraw_locked();
  }
}

}  // namespace parlab::grader
