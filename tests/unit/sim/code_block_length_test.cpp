// A code block's length from the coverage calls around it (counters/code_block_length.hpp)
// and the function ends that bound the last block (counters/function_bounds.hpp).
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "counters/code_block_length.hpp"
#include "counters/function_bounds.hpp"

using parlab_sim::detail::code_block_length_in;
using parlab_sim::detail::kUnknownCodeBlockBytes;

namespace {

// `call rel32` at `at` to the absolute offset `target`.
void put_call(std::vector<unsigned char>& code, std::size_t at, std::size_t target) {
  code[at] = 0xE8;
  const std::int32_t displacement = static_cast<std::int32_t>(target) - static_cast<std::int32_t>(at + 5);
  std::memcpy(&code[at + 1], &displacement, sizeof displacement);
}

}  // namespace

TEST_CASE("a code block runs from a hook call's return to the next call of the same hook",
          "[sim][counters][divergence]") {
  std::vector<unsigned char> code(400, 0x90);
  put_call(code, 10, 300);   // block A starts at 15
  put_call(code, 40, 360);   // a call to another function inside A
  put_call(code, 70, 300);   // block B starts at 75
  CHECK(code_block_length_in(code.data(), code.size(), 15) == 55);
  // B: no later hook call; the scan ends where the bytes (the function) end.
  CHECK(code_block_length_in(code.data(), 120, 75) == 45);
  // A byte E8 inside other instructions that is not a call of the hook does not end a block.
  code[50] = 0xE8;
  CHECK(code_block_length_in(code.data(), code.size(), 15) == 55);
  // Not a call before the address (another architecture, another caller): the default weight.
  CHECK(code_block_length_in(code.data(), code.size(), 20) == kUnknownCodeBlockBytes);
  CHECK(code_block_length_in(code.data(), code.size(), 3) == kUnknownCodeBlockBytes);
}

TEST_CASE("function extents come from the symbol table of this test's own executable",
          "[sim][counters][divergence]") {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  const std::string file{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto extents = parlab_sim::detail::function_extents_in(file);
  REQUIRE(extents.size() > 100);
  for (const auto& [start, end] : extents) CHECK(start < end);
  // A function of this executable: its end lies after its own address.
  const void* self = reinterpret_cast<const void*>(&code_block_length_in);
  const auto end = parlab_sim::detail::function_end_of(self);
  REQUIRE(end);
  CHECK(*end > reinterpret_cast<std::uintptr_t>(self));
  CHECK(*end - reinterpret_cast<std::uintptr_t>(self) < 4096);
  CHECK(parlab_sim::detail::function_extents_in("not an ELF file").empty());
}
