#include "report/code_places.hpp"

#include <algorithm>
#include <charconv>

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

bool hex_number(std::string_view text, std::uint64_t& value) {
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value, 16);
  return !text.empty() && error == std::errc{} && at == end;
}

bool decode_entry(std::string_view entry, CodePlace& place) {
  const std::size_t first = entry.find(',');
  if (first == std::string_view::npos || first == 0) return false;
  const std::size_t second = entry.find(',', first + 1);
  if (second == std::string_view::npos) return false;
  const std::string_view where = entry.substr(0, first);
  const std::size_t dash = where.find('-');
  if (!hex_number(where.substr(0, dash), place.offset)) return false;
  place.end = 0;
  if (dash != std::string_view::npos &&
      (!hex_number(where.substr(dash + 1), place.end) || place.end <= place.offset)) {
    return false;
  }
  const std::string_view flags = entry.substr(first + 1, second - first - 1);
  if (flags.empty() || flags.find_first_not_of("lt-") != std::string_view::npos) return false;
  place.location.library = flags.find('l') != std::string_view::npos;
  place.location.launch_thunk = flags.find('t') != std::string_view::npos;
  place.location.line.assign(entry.substr(second + 1));
  return true;
}

}  // namespace

std::string encode_code_places(const std::vector<CodePlace>& places) {
  std::string text;
  char hex[20];
  for (const CodePlace& place : places) {
    if (!text.empty()) text += ';';
    const auto [end, error] = std::to_chars(hex, hex + sizeof hex, place.offset, 16);
    text.append(hex, error == std::errc{} ? end : hex);
    if (place.end > place.offset) {
      const auto [stretch_end, stretch_error] = std::to_chars(hex, hex + sizeof hex, place.end, 16);
      text += '-';
      text.append(hex, stretch_error == std::errc{} ? stretch_end : hex);
    }
    text += ',';
    if (place.location.library) text += 'l';
    if (place.location.launch_thunk) text += 't';
    if (!place.location.library && !place.location.launch_thunk) text += '-';
    text += ',';
    for (const char c : place.location.line) text += c == ';' || c == '\n' || c == '\r' ? '?' : c;
  }
  return text;
}

std::vector<CodePlace> decode_code_places(std::string_view text) {
  std::vector<CodePlace> places;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(';', at);
    if (end == std::string_view::npos) end = text.size();
    CodePlace place;
    if (decode_entry(text.substr(at, end - at), place)) places.push_back(std::move(place));
    at = end + 1;
  }
  std::stable_sort(places.begin(), places.end(),
                   [](const CodePlace& a, const CodePlace& b) { return a.offset < b.offset; });
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
