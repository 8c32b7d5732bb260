#pragma once
// Runs one task of a lab executable (reference or submission) on one dataset in a
// fresh private folder, then reads back, on the trusted side, what it wrote:
// status, output arrays and timings.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parlab/harness/arrays.hpp"
#include "parlab/harness/params.hpp"
#include "parlab_sim/stop_record.hpp"
#include "process/process_runner.hpp"

namespace parlab::grader {

struct TaskInvocation {
  std::filesystem::path executable;
  std::string task;
  Params params;
  std::filesystem::path dataset_dir;
  int warmup = 0;
  int repeat = 1;
  ResourceLimits limits;
  bool observe = false;  // sample the tree and the machine's load (CPU performance runs)
  std::map<std::string, std::string> env;  // over the runner's extra environment (one run)
  // A program the task runs under, with its arguments (compute-sanitizer --tool memcheck
  // ...): the executable and its arguments follow them. Empty: run the executable itself.
  std::vector<std::string> wrapper;
};

struct TaskRun {
  RunResult run;                     // outcome as seen by the process runner
  std::filesystem::path runs_root;   // the grader's folder holding the run's folder
  std::string run_name;              // the run's folder (its outputs are in out/)
  int calls = 1;                     // task calls made by the child (warm-up + measured)
  std::vector<double> samples_s;     // measured repetitions (validated)
  std::map<std::string, std::vector<double>> phases_s;  // GPU labs: timed apart
  double work_bytes = 0;             // the driver's declared work per call (roofline)
  double work_flops = 0;
  std::string sample_label;          // what a sample measures; empty: the kernels
  std::string message;               // why it failed, for the report
  std::string sim_seed;              // sim mode: the run's PARLAB_SIM_SEED (its thread order)
  std::optional<parlab_sim::StopRecord> stop;  // sim mode: the simulator's verified stop, if it stopped
  bool ok() const { return run.outcome == RunOutcome::ok; }
};

class LabRunner {
 public:
  LabRunner(ProcessRunner& runner, std::filesystem::path runs_root)
      : runner_(runner), runs_root_(std::move(runs_root)) {}

  // `name` names the run's folder (unique per grading). Never throws for anything
  // the child did; throws ToolError when the grader itself cannot work.
  TaskRun run(const TaskInvocation& inv, const std::string& name);

  // Reads the output arrays of a successful run (through ChildRunFiles: no links, no
  // FIFOs, sizes capped). Throws harness::OutputFormatError with the reason.
  static std::vector<harness::NamedArray> outputs(const TaskRun& run);

  // Extra environment for every child (the simulator's settings in sim mode).
  void set_extra_env(std::map<std::string, std::string> env) { extra_env_ = std::move(env); }

  // Sim mode: every run gets a fresh PARLAB_SIM_SEED (grading/schedule_check).
  void set_fresh_sim_seeds(bool on) { fresh_sim_seeds_ = on; }

  // Sim mode: the simulator's parlab-sim-code-places, run once on each program before
  // its first run, whose table every run of it is given (grading/code_places).
  void set_code_places_tool(std::filesystem::path tool) { code_places_tool_ = std::move(tool); }

  // The program's code places table (worked out at the first call, then kept); empty
  // without the tool or when it failed. The grader names its runs' instructions by it
  // (grading/code_place_names).
  const std::string& code_places_for(const std::filesystem::path& program);

  // Wall time of every child this runner started, for the overhead figure.
  double child_seconds() const { return child_seconds_; }

 private:
  ProcessRunner& runner_;
  std::filesystem::path runs_root_;
  double child_seconds_ = 0;
  std::map<std::string, std::string> extra_env_;
  bool fresh_sim_seeds_ = false;
  std::filesystem::path code_places_tool_;
  // Each program's table (empty: none), worked out before its first run: what the
  // program's later runs write cannot change it.
  std::map<std::string, std::string> code_places_;
};

}  // namespace parlab::grader
