// timings.json: the measured repetitions of one task run, as the child saw them.
#include "parlab/harness/timer.hpp"

#include <nlohmann/json.hpp>

#include "parlab/harness/atomic_file.hpp"

namespace parlab::harness {

void write_timings(const std::filesystem::path& dir, int warmup,
                   const std::vector<double>& samples_s, const PhaseSamples& phases_s,
                   WorkAmount work, const std::string& sample_label) {
  nlohmann::json timings = {{"format", "parlab-timings"},
                                  {"version", 1},
                                  {"clock", "steady_clock"},
                                  {"warmup", warmup},
                                  {"samples_s", samples_s}};
  if (!phases_s.empty()) timings["phases_s"] = phases_s;
  if (work.bytes > 0 || work.flops > 0) {
    timings["work"] = {{"bytes", work.bytes}, {"flops", work.flops}};
  }
  if (!sample_label.empty()) timings["sample_label"] = sample_label;
  write_file_atomically(dir / "timings.json", timings.dump(1) + "\n", Durability::page_cache);
}

}  // namespace parlab::harness
