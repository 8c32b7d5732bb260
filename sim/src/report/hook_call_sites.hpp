#pragma once
// Where a check build calls the simulator's hooks: the x86-64 specific part of the code
// places table (report/code_places.hpp), in one unit. g++'s instrumentation calls
// __sanitizer_cov_trace_pc at every code block and the __tsan_* hooks at every load and
// store, each with a direct call (E8 and a 32-bit displacement) to the hook, which the
// runtime links into the executable itself. The return addresses of those calls are the
// addresses a run records. An object of another architecture has no sites here: its runs
// look their addresses up with addr2line, as before.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

namespace parlab_sim::detail {

// The return addresses of every direct call in `code` (bytes loaded at `address`) whose
// target is in `hooks`. A byte E8 inside another instruction can pass for a call only if
// its next four bytes point exactly at a hook: such a site is one more table entry, never
// a wrong one for a real call.
std::vector<std::uint64_t> hook_call_returns_in(const unsigned char* code, std::size_t size,
                                                std::uint64_t address, const std::set<std::uint64_t>& hooks);

// The hook calls' return addresses in the x86-64 ELF64 image `file` (its virtual
// addresses), sorted; empty for another architecture, no symbol table or no hook.
std::vector<std::uint64_t> hook_call_returns_of(std::string_view file);

// The lowest virtual address the image loads at (page-aligned): what the dynamic loader's
// base for the object corresponds to (dladdr's dli_fbase).
std::uint64_t image_base_of(std::string_view file);

}  // namespace parlab_sim::detail
