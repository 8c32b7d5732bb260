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

std::optional<std::string> read_whole_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
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
    std::optional<std::string> text = read_whole_file(it->path());
    files.push_back({it->path().lexically_relative(stage).generic_string(), text.value_or(""), text.has_value()});
  }
  if (error) files.push_back({stage.generic_string(), "", false});
  return files;
}

}  // namespace parlab::grader
