#pragma once
// The record lines of a sim run's counters channel beside its launch lines (a memory
// instruction's, a divergent code block's: grading/memory_hints, divergence_hint), read
// defensively: the lines come from the submission's process.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace parlab::grader {

// Lines read at most, as parse_sim_counters reads.
inline constexpr std::size_t kMaxSimRecordLines = 4096;
// A count above this is none (as a launch line's fields): far above any small run's total.
inline constexpr std::uint64_t kMaxSimRecordCount = std::uint64_t{1} << 40;

// The non-negative integer at `key`, bounded; nothing when absent or not one.
inline std::optional<std::uint64_t> record_count(const nlohmann::json& object, std::string_view key) {
  const auto it = object.find(std::string(key));
  if (it == object.end() || !it->is_number_unsigned()) return std::nullopt;
  const auto value = it->get<std::uint64_t>();
  if (value > kMaxSimRecordCount) return std::nullopt;
  return value;
}

// The string at `key`; nothing when absent, not a string or longer than `longest`.
inline std::optional<std::string> record_text(const nlohmann::json& object, std::string_view key,
                                              std::size_t longest) {
  const auto it = object.find(std::string(key));
  if (it == object.end() || !it->is_string()) return std::nullopt;
  std::string text = it->get<std::string>();
  if (text.size() > longest) return std::nullopt;
  return text;
}

// A kernel's name in a record is at most this long (the runtime cuts it there).
inline constexpr std::size_t kMaxSimRecordKernelName = 120;

// Each line of `text` that is a JSON object with `key`, read by `read` (an optional
// Record: nothing for a malformed one, left out), at most `limit` records.
template <typename Record, typename Read>
std::vector<Record> records_with_key(const std::string& text, std::string_view key, std::size_t limit, Read read) {
  std::vector<Record> records;
  std::istringstream lines(text);
  std::string line;
  std::size_t seen = 0;
  while (seen++ < kMaxSimRecordLines && records.size() < limit && std::getline(lines, line)) {
    const nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
    if (!object.is_object() || !object.contains(std::string(key))) continue;
    if (std::optional<Record> record = read(object)) records.push_back(std::move(*record));
  }
  return records;
}

}  // namespace parlab::grader
