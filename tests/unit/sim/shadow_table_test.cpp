// The race check's word table: a clear forgets every word at once, growth keeps the
// current block's words, and a stale slot from an earlier block is never found.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>

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

TEST_CASE("shadow table: find_or_add says when a key is new, for_each visits the current keys "
          "once each", "[race]") {
  ShadowTable<std::uint64_t> table;
  bool added = false;
  table.find_or_add(0x4000, added) = 3;
  CHECK(added);
  CHECK(table.find_or_add(0x4000, added) == 3);
  CHECK_FALSE(added);
  for (std::uintptr_t w = 1; w < 3000; ++w) table[0x4000 + 4 * w] = w + 3;  // grows
  std::map<std::uintptr_t, std::uint64_t> seen;
  std::size_t visits = 0;
  table.for_each([&](std::uintptr_t key, std::uint64_t value) {
    seen[key] = value;
    ++visits;
  });
  CHECK(visits == 3000);
  CHECK(seen.size() == 3000);
  CHECK(seen[0x4000] == 3);
  CHECK(seen[0x4000 + 4 * 2999] == 3002);
  table.clear();
  visits = 0;
  table.for_each([&](std::uintptr_t, std::uint64_t) { ++visits; });
  CHECK(visits == 0);
  table.find_or_add(0x4000, added);
  CHECK(added);  // forgotten by the clear
}

TEST_CASE("shadow table: keys one line apart in the same place of their line are all kept",
          "[race]") {
  // A matrix column: every key at the same offset of its 64-byte line.
  ShadowTable<std::uint64_t> table;
  constexpr std::uintptr_t kKeys = 20000;
  for (std::uintptr_t k = 0; k < kKeys; ++k) table[0x800000 + 64 * k + 8] = k;
  std::uintptr_t found = 0;
  for (std::uintptr_t k = 0; k < kKeys; ++k) {
    const std::uint64_t* v = table.find(0x800000 + 64 * k + 8);
    found += v != nullptr && *v == k;
  }
  CHECK(found == kKeys);
}
