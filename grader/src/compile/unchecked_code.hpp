#pragma once
// Code of a sim check build that the simulator's checks would not see (docs/sandbox.md,
// the table's row "the checks' instrumentation"). The check build's instrumentation calls the race
// check's and the counters' hooks before every load and store, and the divergence
// counter's at every branch; code the compiler leaves uninstrumented makes accesses no
// check hears of:
//   - a `no_sanitize` attribute in any spelling (no_sanitize("thread"),
//     no_sanitize_thread, no_sanitize_coverage, __no_sanitize__, [[gnu::...]]);
//   - inline assembly that reached the compiler: the rewriter turns every asm statement
//     of a .cu or .cuh file into "needs a GPU", so what is left was written in a plain
//     header (or is a declaration's asm label), and x86 assembly there would load and
//     store unseen.
// Read from the preprocessed source (g++ -E), so a macro, a token paste or a header
// cannot hide a spelling; only lines of the student's own files count (the line markers
// name each line's file), never the simulator's, the harness's or the system's headers.
#include <optional>
#include <string>
#include <string_view>

namespace parlab::grader {

struct UncheckedCode {
  std::string file;  // as the line marker names it
  int line = 0;
  std::string token;  // the attribute's or the asm keyword's spelling
  bool assembly = false;
};

// The first unchecked code in `preprocessed` on a line of a file whose name starts with
// `student_prefix` (the staging folder, as the compile command spelled it).
std::optional<UncheckedCode> find_unchecked_code(std::string_view preprocessed,
                                                 std::string_view student_prefix);

// What the student is told, naming `display_file`:LINE.
std::string unchecked_code_message(const UncheckedCode& found, const std::string& display_file);

}  // namespace parlab::grader
