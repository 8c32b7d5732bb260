#pragma once
// The simulator must grade the code a GPU runs. nvcc compiles each source twice, for the
// host and for the GPU (with __CUDA_ARCH__ set to the GPU's architecture); the
// simulator compiles it once, with g++ and its own headers. A conditional group that
// decides differently between them (`#ifdef __CUDA_ARCH__`, `#ifdef PARLAB_SIM`, a test
// of a macro only one compiler's headers define) would have the simulator grade lines
// no GPU runs, or skip lines a GPU runs. So a sim build preprocesses every source as
// each of them sees it (compile/compile_steps, sim_compiled_views: -fdirectives-only,
// which decides the groups and expands no macro) and compares which lines of the
// student's own files each kept. Any difference: the build cannot be graded here
// (needs a GPU), whichever side the lines are on; so does a GPU view that stopped
// (an #if that reads __CUDA_ARCH_LIST__, whose value depends on the GPU).
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compile/compile_steps.hpp"

namespace parlab::grader {

// For each of the student's files (named as the line markers name them, starting with
// `student_prefix`, not under `excluded_prefix`), the lines that hold anything but
// blanks, the #define, #undef and #pragma lines it prints included: the lines the
// preprocessor kept. A `#line` in a student's file keeps its lines the student's.
using KeptLines = std::map<std::string, std::set<int>>;
KeptLines kept_student_lines(std::string_view preprocessed, std::string_view student_prefix,
                             std::string_view excluded_prefix);

struct ViewDifference {
  std::string file;  // as the line marker names it
  int line = 0;
  std::string gpu_view;     // the GPU view's words: "nvcc's host pass", "nvcc for sm_90"
  bool only_in_sim = false;  // kept by the simulator, not by the GPU's view; else the reverse
  std::string stopped;       // the GPU view's first error, when it stopped instead
};

// The first line (by file, then line) one view kept and the other did not; `gpu_view`
// names the GPU's view in the difference.
std::optional<ViewDifference> first_difference(const KeptLines& sim, const KeptLines& gpu,
                                               const std::string& gpu_view);

// Reads a sim build's views of `source` (sim_compiled_views) and compares the
// simulator's with each GPU view; the first difference, or none. Throws
// std::runtime_error when a view the build should have made is missing.
std::optional<ViewDifference> compare_compiled_views(const std::vector<CompiledView>& views,
                                                     const std::string& source,
                                                     const std::filesystem::path& stage);

// The few words "not graded here: needs a GPU (...)" carries: what and where.
std::string view_difference_feature(const ViewDifference& d, const std::string& display_file);
// What the build log says first.
std::string view_difference_message(const ViewDifference& d, const std::string& display_file);

}  // namespace parlab::grader
