#pragma once
// The code places table's text, as the simulator's parlab-sim-code-places writes it and
// as the runtime (sim/src/report/code_places) and the grader (grading/code_place_names)
// read it: where each hook call of a check build lies in the sources, worked out once
// per program, outside it (docs/simulation-design.md, "Code places").
//
// Entries separated by ';', each "OFFSET,FLAGS,FILE:LINE" or "OFFSET-END,FLAGS,FILE:LINE"
// (a stretch [OFFSET, END)), in hex: the instruction before the hook's return address,
// from the start of the executable's image (what addr2line is given). FLAGS: "l" (the
// simulator's or the standard library's code), "t" (a rewritten launch's lambda), both,
// or "-". FILE:LINE as addr2line named it (empty: no line), not yet the name a student
// knows.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parlab_sim {

struct CodePlaceEntry {
  std::uint64_t offset = 0;
  std::uint64_t end = 0;  // past the stretch it starts; 0: the one instruction at `offset`
  bool library = false;
  bool launch_thunk = false;
  std::string line;
};

namespace code_places_detail {

inline bool hex_number(std::string_view text, std::uint64_t& value) {
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value, 16);
  return !text.empty() && error == std::errc{} && at == end;
}

inline void put_hex(std::string& text, std::uint64_t value) {
  char digits[20];
  const auto [end, error] = std::to_chars(digits, digits + sizeof digits, value, 16);
  text.append(digits, error == std::errc{} ? end : digits);
}

inline bool decode_entry(std::string_view entry, CodePlaceEntry& place) {
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
  place.library = flags.find('l') != std::string_view::npos;
  place.launch_thunk = flags.find('t') != std::string_view::npos;
  place.line.assign(entry.substr(second + 1));
  return true;
}

}  // namespace code_places_detail

// The table's text; a line holding ';' or a line break has them replaced by '?'.
inline std::string encode_code_place_entries(const std::vector<CodePlaceEntry>& places) {
  std::string text;
  for (const CodePlaceEntry& place : places) {
    if (!text.empty()) text += ';';
    code_places_detail::put_hex(text, place.offset);
    if (place.end > place.offset) {
      text += '-';
      code_places_detail::put_hex(text, place.end);
    }
    text += ',';
    if (place.library) text += 'l';
    if (place.launch_thunk) text += 't';
    if (!place.library && !place.launch_thunk) text += '-';
    text += ',';
    for (const char c : place.line) text += c == ';' || c == '\n' || c == '\r' ? '?' : c;
  }
  return text;
}

// The entries of `text`, sorted by offset; a malformed entry (a stretch that ends before
// it starts included) is left out, never half-read.
inline std::vector<CodePlaceEntry> decode_code_place_entries(std::string_view text) {
  std::vector<CodePlaceEntry> places;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(';', at);
    if (end == std::string_view::npos) end = text.size();
    CodePlaceEntry place;
    if (code_places_detail::decode_entry(text.substr(at, end - at), place)) places.push_back(std::move(place));
    at = end + 1;
  }
  std::stable_sort(places.begin(), places.end(),
                   [](const CodePlaceEntry& a, const CodePlaceEntry& b) { return a.offset < b.offset; });
  return places;
}

}  // namespace parlab_sim
