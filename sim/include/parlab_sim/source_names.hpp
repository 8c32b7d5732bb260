#pragma once
// Source file names as the student knows them. A rewritten file names itself with its
// build copy's path (`#line 1 "/.../build/src/lab.cu"`, so compiler messages can be
// mapped back); reports from the running program should say `lab.cu:42`. So each
// rewritten file registers its folder as a source root at start-up, and reports show
// file names relative to it (a header in a sub-folder stays `kernels/reduce.cuh`).
namespace parlab_sim::detail {

// `folder` ends with '/' and must outlive the program (a string literal). Returns true.
bool register_source_root(const char* folder);
// `file` without a registered root in front; `file` itself when none matches.
const char* source_display_name(const char* file);

}  // namespace parlab_sim::detail

#define PARLAB_SIM_SOURCE_ROOT_AS(variable, folder) \
  [[maybe_unused]] static const bool variable = ::parlab_sim::detail::register_source_root(folder);
// What parlab-sim-rewrite puts before a file's first line (a header included twice
// gets two differently named variables).
#define PARLAB_SIM_SOURCE_ROOT(folder) \
  PARLAB_SIM_SOURCE_ROOT_AS(PARLAB_SIM_CONCAT(parlab_sim_source_root_, __COUNTER__), folder)
