#pragma once
// One table per enum of words, so to_string and from_string can never disagree: the
// result's enums (result.cpp) and the lab vocabulary (spec/lab_vocabulary.cpp) map
// to and from their names only through these tables, at the TOML and JSON edges.
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace parlab::grader {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, const char*>, N>;

template <typename Enum, std::size_t N>
const char* name_of(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return "unknown";  // only reachable through a cast of an out-of-range integer
}

// "a, b, c": the allowed words, for error messages.
template <typename Enum, std::size_t N>
std::string names_of(const NameTable<Enum, N>& table) {
  std::string names;
  for (const auto& [e, n] : table) names += (names.empty() ? "" : ", ") + std::string(n);
  return names;
}

// Throws std::invalid_argument naming the word and the allowed ones.
template <typename Enum, std::size_t N>
Enum value_of(const NameTable<Enum, N>& table, std::string_view name, std::string_view what) {
  for (const auto& [e, n] : table) {
    if (name == n) return e;
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(name) +
                              "' (expected one of: " + names_of(table) + ")");
}

}  // namespace parlab::grader
