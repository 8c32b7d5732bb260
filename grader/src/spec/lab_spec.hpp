#pragma once
// A lab's specification as read from labs/<lab>/lab.toml (format: docs/lab-spec.md).
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/resource_limits.hpp"
#include "parlab/harness/params.hpp"
#include "result/result.hpp"
#include "spec/lab_vocabulary.hpp"

namespace parlab::grader {

// Feedback on one output array, resolved for one test (docs/lab-spec.md, [outputs]):
// the row length that turns a flat index into (row, col), and a hint per mismatch kind
// (compare/mismatch_pattern.hpp names the kinds).
struct OutputFeedback {
  std::int64_t columns = 0;                  // 0: not a matrix
  std::map<std::string, std::string> hints;  // mismatch kind -> hint
};

struct ComparatorSpec {
  enum class Kind { exact, tolerance, ulp };
  Kind kind = Kind::tolerance;
  double rtol = 1e-9;
  double atol = 0;
  std::int64_t max_ulp = 4;
  std::vector<std::string> exact_arrays;  // compared exactly whatever the kind
  std::map<std::string, OutputFeedback> outputs;  // by array name (from [outputs.NAME])
};

// An [outputs.NAME] table as written: `columns` is a number or the name of a test or
// dataset parameter (resolved per test into OutputFeedback::columns).
struct OutputSpec {
  std::string name;
  std::int64_t columns = 0;
  std::string columns_param;
  std::map<std::string, std::string> hints;
  // The tasks whose tests this feedback is for (empty: all). Tasks may share an output
  // name ("out") but not its bugs: a matrix guard hint misleads a vector kernel.
  std::vector<std::string> tasks;
  std::string where;
};

struct DatasetSpec {
  std::string id;
  std::string generator;
  Params params;
  std::optional<std::uint64_t> seed;  // empty: fresh seed of this grading
  bool hidden = false;                // hidden datasets never appear in reports
  std::string where;                  // "lab.toml:12" for messages
};

// Roofline feedback of a GPU performance test: the work the driver declared per call
// divided by the median time, against the device's measured peak.
struct RooflineSpec {
  RooflineBound bound = RooflineBound::memory;
  double hint_below = 0.5;       // show `hint` when achieved / peak is below this
  std::string hint;
};

struct PerformanceSpec {
  BaselineProgram baseline_program = BaselineProgram::reference;
  std::string baseline_task;                   // task run for the baseline
  Params baseline_params;                      // empty: the test's params
  double full_at = 0.8;                        // ratio earning full credit
  double zero_at = 0.1;                        // ratio earning none
  bool scale_with_cores = false;               // thresholds are per-core efficiencies
  int min_cores = 1;                           // skipped below this
  int warmup_pairs = 1;
  int min_pairs = 5;
  int max_pairs = 15;
  double max_spread = 0.10;                    // IQR / median of the pair ratios
  double budget_seconds = 60;                  // re-measuring stops here
  // Observed parallelism (docs/scoring.md): with P >= 2 cores, the run's CPU time over
  // its busiest process's (thread's) must reach min_spread, else the test earns nothing.
  ParallelKind parallel = ParallelKind::none;
  double min_spread = 1.5;
  // A parallel test with a `workers` param also runs the submission's own task with one
  // worker: its parallel run must be at least this much faster (a serial program that
  // forks a child to burn CPU spreads CPU time, not work; docs/scoring.md).
  double min_own_speedup = 1.25;
  // A pair during which other programs kept more than this many cores busy is set
  // aside as disturbed and re-measured; too few quiet pairs make the test inconclusive.
  double max_other_load = 0.35;
  // A reference task timed a few times after the pairs, with the test's params and one
  // worker, so the report can also show the speedup over serial code (information
  // only; empty: none).
  std::string serial_task;
  // A gain test (the candidate against another of the reference's tasks, e.g. dynamic
  // against static) also runs the reference's own candidate task in each pair; full
  // credit is never asked beyond this share of the gain it shows there
  // (docs/scoring.md, "What the reference itself gains here").
  double reference_gain_share = 0.6;
};

// A GPU performance test's substitute in sim mode (docs/simulation.md, "Scored counter
// checks"): the test's task runs in the simulator on a small dataset, submission and
// reference, with the memory-access counters on; the points go by the submission's
// counter over the reference's (lower is better). Graded only in sim mode; on a GPU the
// real measurement grades the test.
struct SimCheckSpec {
  SimCounter counter = SimCounter::global_bytes_per_output;
  std::string dataset;     // DatasetSpec::id, small: the simulator is slow
  double full_at = 1.5;    // counter / reference's at or below: full credit
  double zero_at = 4.0;    // at or above: none; linear between
  std::string hint;        // shown when the test loses points
  std::string where;
};

struct TestSpec {
  std::string name;
  TestKind kind = TestKind::correctness;
  double points = 0;
  Visibility visibility = Visibility::visible;
  std::string dataset;  // DatasetSpec::id
  std::string task;
  // Where the task's work runs: gpu (GPU labs' default) or cpu (CPU labs; in a GPU
  // lab, a task of plain host code, e.g. a threaded CPU version). CPU tests run and are
  // measured whatever --device chose; GPU tests are simulated or skipped without a GPU.
  Device device = Device::cpu;
  Params params;        // value "cores" is replaced by the available core count
  int warmup = 0;
  int repeat = 1;
  ComparatorSpec compare;
  ResourceLimits limits;
  std::optional<PerformanceSpec> performance;
  std::optional<RooflineSpec> roofline;
  std::optional<SimCheckSpec> sim_check;  // [tests.sim]: GPU performance tests only
  std::vector<std::string> requires_tests;  // performance gated on these passing
  // A correctness test that needs its GPU to itself (lab02's device budget takes all
  // free device memory but the budget): on a GPU it runs holding the GPU's lock
  // exclusively, so no other grading's GPU run starts beside it (measurement_lock.hpp).
  bool gpu_alone = false;
  std::string where;
};

// One language a submission may be written in (docs/lab-spec.md, "Tracks"): the C++
// track is [lab] sources; another is a [tracks.NAME] table. A track brings its own
// sources, skeleton and reference; the tests, datasets and outputs are the lab's.
struct TrackSpec {
  Track track = Track::cpp;
  std::vector<std::string> sources;  // files a submission of this track must contain
  std::string skeleton = "skeleton"; // folder under labs/<dir>/ with the track's skeleton
  std::string reference;             // folder under reference/<dir>/ ("": the folder itself)
  // A test's dataset -> the one this track's tests read instead (same shape, sized for
  // the language: Python reads a row ~50x slower than C++).
  std::map<std::string, std::string> datasets;
  std::string where;
};

struct LabSpec {
  std::filesystem::path file;  // the lab.toml
  std::filesystem::path dir;   // labs/<dir>
  std::string id;              // "lab01"
  std::string title;
  Device kind = Device::cpu;   // [lab] kind: cpu | gpu
  std::vector<std::string> sources;  // files a submission must contain (the graded track's)
  // Every track of the lab, the C++ one ([lab] sources) first; `track` is the one this
  // spec is for (for_track() makes a spec of another).
  std::vector<TrackSpec> tracks;
  Track track = Track::cpp;
  // Performance tests whose speed ratio goes on Gradescope's leaderboard (may be empty).
  std::vector<std::string> leaderboard;
  std::vector<DatasetSpec> datasets;
  // [sim] datasets: a GPU test's dataset -> the one it reads in parlab's simulator
  // (spec/dataset_stand_ins.hpp); applied by for_simulator().
  std::map<std::string, std::string> sim_datasets;
  std::vector<TestSpec> tests;
  std::vector<OutputSpec> outputs;

  double max_points() const;
  const DatasetSpec& dataset(const std::string& id) const;  // throws SpecError
};

// The track `t` of `lab`, or nullptr when the lab has none.
const TrackSpec* find_track(const LabSpec& lab, Track t);

// `lab` as graded for track `t`: its sources, and its tests reading the track's
// datasets. Throws UsageError when the lab has no such track.
LabSpec for_track(const LabSpec& lab, Track t);

// Reads and validates a lab.toml. Throws SpecError("<file>:<line>:<col>: <what>").
LabSpec load_lab_spec(const std::filesystem::path& toml_file);

// All labs under `labs_root` (each <dir>/lab.toml), sorted by id.
std::vector<LabSpec> load_all_labs(const std::filesystem::path& labs_root);

}  // namespace parlab::grader
