#include "compile/source_text.hpp"

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace parlab::grader {

std::size_t skip_quoted(std::string_view text, std::size_t i) {
  const char quote = text[i];
  for (++i; i < text.size() && text[i] != '\n'; ++i) {
    if (text[i] == quote) return i + 1;
    if (text[i] == '\\') ++i;
  }
  return i;
}

std::vector<SourceFile> staged_student_files(const fs::path& stage) {
  std::vector<SourceFile> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(stage, error), end; !error && it != end; it.increment(error)) {
    if (it.depth() == 0 && it->path() == stage / "sim") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    files.push_back({it->path().lexically_relative(stage).generic_string(), text.str(), static_cast<bool>(in)});
  }
  if (error) files.push_back({stage.generic_string(), "", false});
  return files;
}

}  // namespace parlab::grader
