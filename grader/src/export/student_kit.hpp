#pragma once
// What a student kit holds (`grade export student`, docs/release.md): the handouts,
// skeletons and public headers of the chosen labs, the grader, harness, datasets and
// simulator as source, and the references only as stripped executables in
// prebuilt-references/ (a Python track's reference as -OO bytecode: .pyc files in
// prebuilt-references/<lab>_python_reference/). Never a file of reference/ and never
// a build folder (where the simulator's rewritten reference sources live). The kit's CMake build records
// the prebuilt executables in toolchain.json instead of building references
// (cmake/ParlabLab.cmake).
#include <filesystem>
#include <string>
#include <vector>

#include "compile/toolchain.hpp"

namespace parlab::grader {

struct KitFile {
  std::string name;            // path inside the kit, '/'-separated
  std::filesystem::path from;  // a file on disk, or empty: `text` is the content
  std::string text;
  bool executable = false;     // for text files
};

// The files of a kit for `lab_ids` (each must be built in `toolchain`). Stripped
// copies of the reference executables are written to `scratch`, which the caller
// removes. Throws UsageError for an unknown lab, EnvironmentError when a reference is
// not built or `strip` fails.
std::vector<KitFile> student_kit_files(const Toolchain& toolchain, const std::vector<std::string>& lab_ids,
                                       const std::filesystem::path& scratch);

}  // namespace parlab::grader
