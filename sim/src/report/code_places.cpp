#include "report/code_places.hpp"

#include <algorithm>

namespace parlab_sim::detail {

namespace {

// The run's table, instructions and stretches apart, each sorted by offset. Read-only
// once start-up has loaded it (before any thread of the program exists).
struct RunTable {
  std::vector<CodePlace> instructions;
  std::vector<CodePlace> stretches;
};
RunTable& run_table() {
  static RunTable table;
  return table;
}

}  // namespace

std::string encode_code_places(const std::vector<CodePlace>& places) {
  std::vector<parlab_sim::CodePlaceEntry> entries;
  entries.reserve(places.size());
  for (const CodePlace& place : places) {
    entries.push_back({place.offset, place.end, place.location.library, place.location.launch_thunk,
                       place.location.line});
  }
  return parlab_sim::encode_code_place_entries(entries);
}

std::vector<CodePlace> decode_code_places(std::string_view text) {
  std::vector<CodePlace> places;
  for (parlab_sim::CodePlaceEntry& entry : parlab_sim::decode_code_place_entries(text)) {
    places.push_back({entry.offset, entry.end, {entry.library, entry.launch_thunk, std::move(entry.line)}});
  }
  return places;
}

void load_code_places(std::string_view text) {
  RunTable table;
  for (CodePlace& place : decode_code_places(text)) {
    // A stretch overlapping the one before is not the tool's: left out, as malformed.
    if (place.end != 0 && !table.stretches.empty() && place.offset < table.stretches.back().end) continue;
    (place.end != 0 ? table.stretches : table.instructions).push_back(std::move(place));
  }
  run_table() = std::move(table);
}

const CodePlace* known_code_place(std::uint64_t offset) {
  const RunTable& table = run_table();
  const auto exact = std::lower_bound(table.instructions.begin(), table.instructions.end(), offset,
                                      [](const CodePlace& place, std::uint64_t wanted) { return place.offset < wanted; });
  if (exact != table.instructions.end() && exact->offset == offset) return &*exact;
  // The last stretch starting at or before `offset`; stretches do not overlap.
  auto after = std::upper_bound(table.stretches.begin(), table.stretches.end(), offset,
                                [](std::uint64_t wanted, const CodePlace& place) { return wanted < place.offset; });
  if (after == table.stretches.begin()) return nullptr;
  --after;
  return offset < after->end ? &*after : nullptr;
}

}  // namespace parlab_sim::detail
