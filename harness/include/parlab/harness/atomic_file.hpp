#pragma once
// Whole-file writes a reader never sees half done (DESIGN invariant 6): a uniquely named
// temp file in the target's directory, renamed over the target (rename(2) is atomic
// within one file system). The one implementation, for the child's output files (the
// harness) and the grader's results (grader/src/util/atomic_write.hpp).
#include <filesystem>
#include <string_view>

namespace parlab::harness {

enum class Durability {
  // The rename is atomic but may be lost in a machine crash: a child's outputs, read by
  // the grader once the child has exited (a crash re-runs the grading anyway).
  page_cache,
  // fsync of the file before the rename and of the directory after: the grader's
  // results and records, which must survive a crash of the machine.
  disk,
};

// Writes `content` to `path` (whose directory must exist). Throws std::runtime_error
// naming the path, the step and the system error (e.g. "File too large" past the file
// size limit); the temp file is removed then.
void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           Durability durability);

}  // namespace parlab::harness
