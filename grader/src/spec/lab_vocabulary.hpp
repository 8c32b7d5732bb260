#pragma once
// The words of lab.toml (docs/lab-spec.md) that choose behaviour, parsed once by the
// spec loader into enums; only the TOML and JSON edges see their names. The result's
// own words (TestKind, DeviceMode, RooflineBound, Visibility) live in result/result.hpp.
#include <string>

#include "result/result.hpp"

namespace parlab::grader {

// Where a test's work runs, and a lab's kind ([lab] kind: a GPU lab's tests run on the
// GPU unless they say `device = "cpu"`).
enum class Device { cpu, gpu };

// The program a performance test's baseline runs ([tests.performance] baseline).
enum class BaselineProgram {
  reference,      // the prebuilt reference executable
  cpu_reference,  // a GPU lab's CPU reference program
  submission,     // the submission itself (e.g. its own serial task)
};

// The parallelism a performance test requires (docs/scoring.md, "Observed parallelism").
enum class ParallelKind {
  none,       // not required (the key left out)
  processes,  // the work spread over processes (lab01's forked workers)
  threads,    // over threads or processes
};

// A GPU performance test's counter in sim mode ([tests.sim] counter).
// Each is a whole-run total over the outputs' element count, never an average per
// instruction: work a kernel adds only raises it (docs/simulation.md, "Scored counter
// checks").
enum class SimCounter {
  global_bytes_per_output,   // global traffic: 32-byte sectors of loads and stores x 32
  global_loads_per_output,   // data reuse: lanes' global loads
  shared_passes_per_output,  // shared requests' passes (a k-way conflict: k passes)
};

const char* to_string(Device d);
const char* to_string(BaselineProgram p);
const char* to_string(ParallelKind p);  // "" for none
const char* to_string(SimCounter c);
// Each throws std::invalid_argument naming the word and the words it knows.
Device device_from_string(const std::string& s);
BaselineProgram baseline_program_from_string(const std::string& s);
ParallelKind parallel_kind_from_string(const std::string& s);  // "processes" | "threads"
SimCounter sim_counter_from_string(const std::string& s);

}  // namespace parlab::grader

