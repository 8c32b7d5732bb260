#pragma once
// The commands that turn a staged submission into an executable, for each way a lab
// can be built: host C++ (CPU labs), nvcc (GPU labs on a GPU) and the simulation
// backend (GPU labs without one: every .cu/.cuh through parlab-sim-rewrite, then g++
// against the simulated runtime).
#include <filesystem>
#include <string>
#include <vector>

#include "compile/toolchain.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

// host: g++ for the CPU; cuda: nvcc; sim: the simulation backend; python: no
// compiler, a syntax check and a program folder (compile/python_program.hpp).
enum class BuildTarget { host, cuda, sim, python };

const char* to_string(BuildTarget target);

struct CompileStep {
  std::filesystem::path program;
  std::vector<std::string> args;
  // A step that only checks this staged file (nvcc's check of a sim build) and makes
  // nothing the build needs: its pass may be remembered (compile/compile_check_memo).
  std::string checks_source;
  // A step that only preprocesses this staged file into a view compile/compiled_views
  // compares (the simulator's or nvcc's): skipped where that file's views agreed before
  // on the same inputs (compile/compile_check_memo, compiled_views_key).
  std::string views_of;
};

struct CompilePlan {
  std::vector<CompileStep> steps;           // run in order; the last one links
  std::vector<std::filesystem::path> read_only;  // what the sandbox must show
  std::vector<std::filesystem::path> inputs;     // prebuilt files the result depends on
};

// `stage` holds the staged sources; the plan writes `exe`. Throws EnvironmentError
// when this build cannot make the target (no nvcc, lab not built for it).
CompilePlan plan_compile(BuildTarget target, const LabSpec& lab, const Toolchain& toolchain,
                         const std::filesystem::path& stage, const std::filesystem::path& exe);

// Where the cuda plan compiles `source` (a staged file name) to an object before linking.
std::filesystem::path cuda_object_path(const std::filesystem::path& stage, const std::string& source);

// "prog arg arg ..." for the report.
std::string join_command(const CompileStep& step);

// One way a compiler sees a source of a sim build: the simulator's own g++ (`sim`), or
// nvcc's preprocessor as a GPU build runs it, for the host (`host`) or for one GPU
// architecture (`sm_90`). Each is the source preprocessed with -fdirectives-only: its
// conditional groups decided, its macros not expanded (compile/compiled_views).
enum class ViewKind { sim, gpu_host, gpu_device };

struct CompiledView {
  std::string source;  // the staged file name
  ViewKind kind = ViewKind::sim;
  std::string arch;  // gpu_device: the architecture ("90" for sm_90, __CUDA_ARCH__ 900)
  std::filesystem::path output;
};

// "sim", "host", "sm_90": the view's name in its file and in messages.
std::string view_name(const CompiledView& view);

// Whether a sim build compares what it compiles with what a GPU build compiles (compile/
// compiled_views, compile/sim_without_nvcc): PARLAB_SIM_VIEWS=0 (benchmarks) leaves it
// out, and so does PARLAB_SIM_NVCC_CHECK=0.
bool views_wanted();

// The views a sim build compares, where nvcc is installed (and its check is wanted):
// the simulator's, the host's and one per GPU architecture this nvcc compiles for,
// for every listed source. Empty without nvcc.
std::vector<CompiledView> sim_compiled_views(const LabSpec& lab, const Toolchain& toolchain,
                                             const std::filesystem::path& stage);

// Where a sim check build leaves `source` preprocessed (stage/sim/SOURCE.ii), for the
// grader's check of code the instrumentation would not see (compile/unchecked_code).
std::filesystem::path sim_preprocessed_path(const std::filesystem::path& stage, const std::string& source);

}  // namespace parlab::grader
