// The race check's word table: a clear forgets every word at once, growth keeps the
// current block's words, and a stale slot from an earlier block is never found.
#include <catch2/catch.hpp>
#include <cstdint>

#include "race/shadow_table.hpp"

using parlab_sim::detail::ShadowTable;

TEST_CASE("shadow table: values by key, found again, fresh after a clear", "[race]") {
  ShadowTable<int> table;
  CHECK(table.find(0x1000) == nullptr);
  table[0x1000] = 7;
  table[0x1004] = 9;
  REQUIRE(table.find(0x1000) != nullptr);
  CHECK(*table.find(0x1000) == 7);
  CHECK(*table.find(0x1004) == 9);
  CHECK(table.find(0x1008) == nullptr);
  table.clear();
  CHECK(table.find(0x1000) == nullptr);
  CHECK(table[0x1000] == 0);  // value-initialised again, not the old block's 7
}

TEST_CASE("shadow table: growth keeps every word of the block, clears still forget them", "[race]") {
  ShadowTable<std::uint64_t> table;
  constexpr std::uintptr_t kWords = 50000;  // many times the first size
  for (std::uintptr_t w = 0; w < kWords; ++w) table[0x10000 + 4 * w] = w + 1;
  std::uintptr_t found = 0;
  for (std::uintptr_t w = 0; w < kWords; ++w) {
    const std::uint64_t* v = table.find(0x10000 + 4 * w);
    found += v != nullptr && *v == w + 1;
  }
  CHECK(found == kWords);
  table.clear();
  std::uintptr_t stale = 0;
  for (std::uintptr_t w = 0; w < kWords; ++w) stale += table.find(0x10000 + 4 * w) != nullptr;
  CHECK(stale == 0);
}

TEST_CASE("shadow table: a block that outgrows the last keeps its own words only", "[race]") {
  ShadowTable<std::uint64_t> table;
  for (std::uintptr_t w = 0; w < 300; ++w) table[0x20000 + 4 * w] = 1;
  table.clear();
  // The second block is larger: the table grows while the first block's slots are stale.
  constexpr std::uintptr_t kWords = 5000;
  for (std::uintptr_t w = 0; w < kWords; ++w) table[0x90000 + 4 * w] = w + 2;
  std::uintptr_t found = 0, stale = 0;
  for (std::uintptr_t w = 0; w < kWords; ++w) {
    const std::uint64_t* v = table.find(0x90000 + 4 * w);
    found += v != nullptr && *v == w + 2;
  }
  for (std::uintptr_t w = 0; w < 300; ++w) stale += table.find(0x20000 + 4 * w) != nullptr;
  CHECK(found == kWords);
  CHECK(stale == 0);
  // A word written again in the same block is the same value, not a new one.
  table[0x90000] += 10;
  CHECK(*table.find(0x90000) == 12);
}
