#pragma once
// A Python track's "build" (docs/lab-spec.md, "Tracks"): no compiler. The staged
// sources are checked by py_compile in the sandbox (a syntax error is a failed build
// naming file:line:col, as a compiler's would be), then the grader puts together the
// program folder a run sees, the counterpart of a linked executable:
//   bin/<lab>_submission   the launcher (harness/python/launcher.py): python3 -ISB
//   bin/driver/            the lab's driver.py and its other .py files, parlab_harness
//   bin/solution/          the staged sources
// The run sees only bin/ (grading/lab_runner shows the executable's folder), the
// standard library under /usr, and its own folders.
#include <filesystem>

#include "compile/compile_steps.hpp"

namespace parlab::grader {

// The interpreter every Python program runs under: the launcher's #! line names it.
inline constexpr const char* kPython3 = "/usr/bin/python3";

// The syntax check of the staged sources. Throws EnvironmentError without python3.
CompilePlan python_plan(const LabSpec& lab, const Toolchain& tc, const std::filesystem::path& stage,
                        const std::filesystem::path& exe);

// The program folder around `exe` (its parent): launcher, driver, harness, sources.
// `harness_dir` is harness/python, `lab_dir` the lab's folder, `solution` the sources'.
void assemble_python_program(const std::filesystem::path& harness_dir,
                             const std::filesystem::path& lab_dir,
                             const std::filesystem::path& solution,
                             const std::vector<std::string>& sources,
                             const std::filesystem::path& exe);

}  // namespace parlab::grader
