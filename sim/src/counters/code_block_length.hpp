#pragma once
// The length in bytes of the code block (basic block) that starts at a coverage hook's
// return address: how much work one run of it is, for weighting branch divergence
// (counters/divergence.hpp). Without it a one-line halo load or a warp leader's atomic
// counted as much as a loop body run by every lane.
//
// g++'s -fsanitize-coverage=trace-pc starts every code block with a call to the hook, so
// on x86-64 the block runs from the return address up to the next call with the same
// target (5 bytes: E8 and a 32-bit displacement), or where its function ends (the last
// block: counters/function_bounds.hpp). The scan stays inside the executable mapping that
// holds the address and reads at most kMaxCodeBlockBytes; where the bytes
// before the address are not such a call (another architecture, a hook called some other
// way) the length is kUnknownCodeBlockBytes, so every block weighs the same as before.
#include <cstddef>
#include <cstdint>

namespace parlab_sim::detail {

inline constexpr std::uint32_t kMaxCodeBlockBytes = 1024;
inline constexpr std::uint32_t kUnknownCodeBlockBytes = 32;

// The scan itself, over `code` (the bytes of an executable mapping) from offset `start`
// (a return address); unit-tested on hand-made bytes.
std::uint32_t code_block_length_in(const unsigned char* code, std::size_t size, std::size_t start);

// For a return address of the hook in this process (cached per address).
std::uint32_t code_block_length(const void* return_address);

}  // namespace parlab_sim::detail
