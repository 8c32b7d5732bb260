#include "compile/architecture_names.hpp"

#include <cctype>

#include "compile/source_text.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

bool names_gpu_architecture(std::string_view id) {
  while (id.starts_with("_")) id.remove_prefix(1);
  for (std::string_view family : {"CUDA_ARCH", "NV_", "CG_", "CCCL", "cccl"}) {
    if (id.starts_with(family)) return true;
  }
  return false;
}

bool may_read_gpu_architecture(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string_view::npos) return false;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == std::string_view::npos) return false;
      i += 2;
    } else if (c == '"' || c == '\'') {
      i = skip_quoted(text, i);
    } else if (c == '#' && i + 1 < text.size() && text[i + 1] == '#') {
      return true;  // a token paste could spell any name
    } else if (is_identifier_char(c)) {
      std::size_t end = i;
      while (end < text.size() && is_identifier_char(text[end])) ++end;
      if (!std::isdigit(static_cast<unsigned char>(c)) && names_gpu_architecture(text.substr(i, end - i))) {
        return true;
      }
      i = end;
    } else {
      ++i;
    }
  }
  return false;
}

bool sources_may_read_gpu_architecture(const fs::path& stage) {
  for (const SourceFile& file : staged_student_files(stage)) {
    if (!file.readable || may_read_gpu_architecture(file.text)) return true;
  }
  return false;
}

}  // namespace parlab::grader
