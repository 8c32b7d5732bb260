#pragma once
// parlab-sim-rewrite's work, as a library function: turns a .cu file into C++ that
// compiles against the simulated runtime (g++ -include parlab_sim/prelude.hpp):
//   - `kernel<<<grid, block[, shmem[, stream]]>>>(args)` becomes a parlab_sim::launch
//     call (templates, nested brackets, macros, comments, newlines, several per line);
//   - `extern __shared__ T name[];` becomes a pointer to the block's dynamic shared
//     memory;
//   - each static `__shared__` declaration in a function body is followed by a
//     PARLAB_SIM_STATIC_SHARED(...) statement that counts its bytes against the limit.
// The output starts with `#line 1 "<file>"` and keeps every line where it was, so
// compiler messages point at the student's .cu lines.
#include <string>
#include <string_view>
#include <vector>

namespace parlab_sim {

struct RewriteResult {
  std::string text;
  // "file:line: message" for constructs that could not be rewritten; the text then
  // keeps them unchanged (and the compiler will reject them).
  std::vector<std::string> errors;
};

RewriteResult rewrite_cuda_source(std::string_view source, std::string_view file_name);

}  // namespace parlab_sim
