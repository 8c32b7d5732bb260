#pragma once
// Where the function holding a code address ends, from the symbol table of the object
// file it was loaded from (the executable's own .symtab: a check build is not stripped).
// Bounds a code block's length (counters/code_block_length.hpp): a function's last code
// block is not followed by another coverage call, only by code that has none.
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace parlab_sim::detail {

// [start, end) of each function symbol with a size, as offsets in the ELF image `file`
// (the bytes of an ELF64 file), sorted by start; empty for anything else.
std::vector<std::pair<std::uint64_t, std::uint64_t>> function_extents_in(std::string_view file);

// The end address of the function holding `address` in this process; nothing when no
// symbol covers it (cached per object).
std::optional<std::uintptr_t> function_end_of(const void* address);

}  // namespace parlab_sim::detail
