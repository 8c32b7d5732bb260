// --- sandbagging: with 2 or more workers the burner's serial loop (lab01_burner.cpp,
// renamed `serial_with_burner` by make_submission.sh), with 1 worker the serial loop
// and then as long again asleep. Its own 1-worker run looks twice as slow as its
// "parallel" one, which is serial: only the reference's 1-worker run shows it.
#include <chrono>
#include <thread>

namespace lab01 {
std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int workers,
                                        Schedule schedule) {
  if (workers > 1) return serial_with_burner(paths, workers, schedule);
  const auto start = std::chrono::steady_clock::now();
  std::vector<FileStats> out = process_serial(paths);
  std::this_thread::sleep_for(std::chrono::steady_clock::now() - start);
  return out;
}
}  // namespace lab01
