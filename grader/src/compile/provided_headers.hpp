#pragma once
// A submission's header may not take the place of one the grader provides. The
// compiler searches the submission's folder before the simulator's and the harness's
// include folders (`-iquote`/`-I` of the stage come first, and the simulator's own
// headers include each other by quoted names), so a staged `parlab_sim/prelude.hpp`,
// `cuda_runtime.h` or `parlab/harness/gpu/cuda_check.hpp` would replace the runtime's
// code inside the judged program. Such a file is refused by name, before the build.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace parlab::grader {

// A folder of headers the grader provides, and whose they are ("the simulator").
struct ProvidedHeaders {
  std::filesystem::path root;
  std::string owner;
};

struct ShadowingFile {
  std::string staged;    // the submission's file, relative ("parlab_sim/prelude.hpp")
  std::string message;   // a sentence for the student naming it
};

// The first staged file (relative, '/'-separated) that names a file under one of
// `provided`, or lies in `reserved_folder` (the stage's folder the build itself writes,
// "sim" for the simulator's rewritten copies; empty: none).
std::optional<ShadowingFile> find_shadowing_file(const std::vector<std::string>& staged,
                                                 const std::vector<ProvidedHeaders>& provided,
                                                 const std::string& reserved_folder);

}  // namespace parlab::grader
