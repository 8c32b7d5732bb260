#include "compile/architecture_names.hpp"

#include <algorithm>

#include "compile/directive_lines.hpp"
#include "compile/source_text.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

bool names_gpu_architecture(std::string_view id) {
  while (id.starts_with("_")) id.remove_prefix(1);
  for (std::string_view family : {"CUDA_ARCH", "NV_", "CG_", "CCCL", "cccl"}) {
    if (id.starts_with(family)) return true;
  }
  return false;
}

// Read as the preprocessor reads (compile/directive_lines): a splice, a digit separator
// or a string prefix cannot hide a name from it.
bool may_read_gpu_architecture(std::string_view text) {
  bool pastes = false;
  const std::vector<std::string> names = identifiers_of(text, pastes);
  return pastes || std::any_of(names.begin(), names.end(), [](const std::string& n) { return names_gpu_architecture(n); });
}

bool sources_may_read_gpu_architecture(const fs::path& stage) {
  for (const SourceFile& file : staged_student_files(stage)) {
    if (!file.readable || may_read_gpu_architecture(file.text)) return true;
  }
  return false;
}

}  // namespace parlab::grader
