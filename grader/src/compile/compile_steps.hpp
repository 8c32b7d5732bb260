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

// Where a sim check build leaves `source` preprocessed (stage/sim/SOURCE.ii), for the
// grader's check of code the instrumentation would not see (compile/unchecked_code).
std::filesystem::path sim_preprocessed_path(const std::filesystem::path& stage, const std::string& source);

}  // namespace parlab::grader
