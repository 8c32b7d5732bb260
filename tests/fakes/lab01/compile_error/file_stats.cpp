// Fake submission (tests/fakes/lab01/compile_error): does not compile, on purpose.
// Line 5 has a syntax error; the report must show the compiler's message for it.
#include "api.hpp"

const int broken_on_line_5 = ;

namespace lab01 {

FileStats compute_file_stats(const std::string& path) {
  FileStats stats;
  stats.file = path;
  return stats;
}

}  // namespace lab01
