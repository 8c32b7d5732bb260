#pragma once
// Small pieces of reading C++ source text, shared by the grader's checks of what a
// student wrote or a compiler saw (compile/unchecked_code, compile/architecture_names).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parlab::grader {

// Past a literal that starts at text[i] (a quote): its closing quote, backslashes
// honoured; an unclosed one ends before its line's break.
std::size_t skip_quoted(std::string_view text, std::size_t i);

// A whole file as text (bytes as they are); none when it cannot be opened or read.
std::optional<std::string> read_whole_file(const std::filesystem::path& file);

struct SourceFile {
  std::string name;  // relative to the stage, '/'-separated
  std::string text;
  bool readable = true;
};

// The staged student files: every regular file under `stage` but the simulator's folder
// (`stage`/sim), which holds the build's rewritten copies and views.
std::vector<SourceFile> staged_student_files(const std::filesystem::path& stage);

}  // namespace parlab::grader
