// The growing array under the counters' access list and the race check's words: records
// survive every doubling (the pages move, not the bytes), a clear keeps the mapping, and
// a record added after a clear is value-initialised, not the last block's.
#include <catch2/catch.hpp>
#include <cstdint>

#include "memory/remapped_array.hpp"

using parlab_sim::detail::RemappedArray;

namespace {
struct Record {
  std::uint64_t key = 0;
  std::uintptr_t address = 0;
  std::uint32_t bytes = 4;
};
}  // namespace

TEST_CASE("remapped array: a million records survive every doubling in order", "[memory]") {
  RemappedArray<Record> list;
  CHECK(list.size() == 0);
  CHECK(list.begin() == list.end());
  constexpr std::uint64_t kRecords = 1'000'000;  // 24 MB: nine doublings from 64 KiB
  for (std::uint64_t i = 0; i < kRecords; ++i) list.push_back(Record{i * 3, i + 7, static_cast<std::uint32_t>(i % 16)});
  REQUIRE(list.size() == kRecords);
  std::uint64_t intact = 0;
  for (std::uint64_t i = 0; i < kRecords; ++i) {
    const Record& r = list[i];
    intact += r.key == i * 3 && r.address == i + 7 && r.bytes == i % 16;
  }
  CHECK(intact == kRecords);
  CHECK(list.end() - list.begin() == static_cast<std::ptrdiff_t>(kRecords));
}

TEST_CASE("remapped array: a clear keeps the pages, a new record starts value-initialised", "[memory]") {
  RemappedArray<Record> list;
  for (int i = 0; i < 5000; ++i) list.push_back(Record{99, 99, 99});
  const Record* pages = list.data();
  list.clear();
  CHECK(list.size() == 0);
  Record& fresh = list.emplace_back();
  CHECK(list.data() == pages);  // no new mapping for the next block
  CHECK(fresh.key == 0);
  CHECK(fresh.address == 0);
  CHECK(fresh.bytes == 4);  // the member's initialiser, not the 99 left in the page
}
