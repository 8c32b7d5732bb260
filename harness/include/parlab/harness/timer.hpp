#pragma once
// Host-clock timing of the measured region inside a lab executable. Samples go to
// `timings.json` in the output directory:
//   {"format":"parlab-timings","version":1,"clock":"steady_clock",
//    "warmup":W,"samples_s":[...measured repetitions only...]}
// The grader checks these against the wall time it observed for the whole process, so
// an impossible figure is caught (the process is untrusted).
#include <chrono>
#include <filesystem>
#include <vector>

namespace parlab::harness {

class HostTimer {
 public:
  void start() { t0_ = Clock::now(); }
  double stop_seconds() const {
    return std::chrono::duration<double>(Clock::now() - t0_).count();
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0_{};
};

void write_timings(const std::filesystem::path& dir, int warmup,
                   const std::vector<double>& samples_s);

}  // namespace parlab::harness
