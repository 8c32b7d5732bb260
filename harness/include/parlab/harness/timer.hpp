#pragma once
// Host-clock timing of the measured region inside a lab executable. Samples go to
// `timings.json` in the output directory:
//   {"format":"parlab-timings","version":1,"clock":"steady_clock",
//    "warmup":W,"samples_s":[...measured repetitions only...],
//    "phases_s":{"host_to_device":[...],...},   (optional: e.g. transfers, timed apart)
//    "work":{"bytes":B,"flops":F},               (optional: per measured call, for the
//                                                 roofline feedback: GB/s, GFLOP/s)
//    "sample_label":"round_trip"}                (optional: what a sample measures)
// The grader checks these against the wall time it observed for the whole process, so
// an impossible figure is caught (the process is untrusted).
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
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

using PhaseSamples = std::map<std::string, std::vector<double>>;

// The minimum memory traffic and arithmetic of one measured call (0: not stated).
struct WorkAmount {
  double bytes = 0;
  double flops = 0;
};

void write_timings(const std::filesystem::path& dir, int warmup,
                   const std::vector<double>& samples_s, const PhaseSamples& phases_s = {},
                   WorkAmount work = {}, const std::string& sample_label = "");

}  // namespace parlab::harness
