#include "batch/batch_scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace parlab::grader::batch {

ScheduleOutcome grade_all(const std::vector<Student>& students, int jobs, const StudentGrader& grader,
                          ProgressReporter& progress) {
  ScheduleOutcome outcome;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  auto worker = [&] {
    while (!stop) {
      const std::size_t i = next++;
      if (i >= students.size()) return;
      StudentGrading g;
      try {
        g = grader.grade(students[i]);
      } catch (const std::exception& e) {
        // Our own failure (disk full, unreadable folder): record it, keep going.
        g.record.student = {students[i].id, students[i].name, students[i].source.entry};
        g.record.status = StudentStatus::error;
        g.record.reason = std::string("grade batch could not grade it: ") + e.what();
      }
      progress.finished(g.record);
      std::lock_guard<std::mutex> lock(mutex);
      if (g.record.result) ++outcome.finished;
      if (g.record.status == StudentStatus::error) ++outcome.errors;
      if (g.record.attempts > 1) {
        outcome.retried.push_back({g.record.student.id, g.record.attempts, g.record.retried_because});
      }
      if (g.environment_broken && !outcome.environment_broken) {
        outcome.environment_broken = true;
        outcome.environment_reason = g.record.reason;
        stop = true;
      }
    }
  };
  const int n = std::clamp(jobs, 1, static_cast<int>(std::max<std::size_t>(1, students.size())));
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  return outcome;
}

}  // namespace parlab::grader::batch
