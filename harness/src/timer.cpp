// timings.json: the measured repetitions of one task run, as the child saw them.
#include "parlab/harness/timer.hpp"

#include <nlohmann/json.hpp>

#include "atomic_file.hpp"

namespace parlab::harness {

void write_timings(const std::filesystem::path& dir, int warmup,
                   const std::vector<double>& samples_s) {
  const nlohmann::json timings = {{"format", "parlab-timings"},
                                  {"version", 1},
                                  {"clock", "steady_clock"},
                                  {"warmup", warmup},
                                  {"samples_s", samples_s}};
  detail::write_file_atomically(dir / "timings.json", timings.dump(1) + "\n");
}

}  // namespace parlab::harness
