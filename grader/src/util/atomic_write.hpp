#pragma once
// Results are written atomically (DESIGN invariant 6): a reader, or a grader that
// crashed half way, sees either the old file or the whole new one, never a torn one.
#include <filesystem>
#include <string_view>

namespace parlab::grader {

// Creates the parent directories, writes `content` to a uniquely named temp file in
// the same directory, fsyncs it, renames it over `path`, then fsyncs the directory.
// Throws std::runtime_error naming the path and the system error on failure; the temp
// file is removed in that case.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace parlab::grader
