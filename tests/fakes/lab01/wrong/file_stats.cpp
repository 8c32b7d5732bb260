// Fake submission (tests/fakes/lab01/wrong): a careful solution with one off-by-one:
// the mean divides by rows + 1, so the first array that mismatches is file_mean.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

bool parse_value(std::string_view text, double& value) {
  text = trim(text);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc{} && end == text.data() + text.size() &&
         std::isfinite(value);
}

}  // namespace

FileStats compute_file_stats(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  FileStats stats;
  stats.file = path;
  std::int64_t n = 0;
  double sum = 0, welford_mean = 0, m2 = 0;
  bool header_seen = false;
  std::string line;
  while (std::getline(in, line)) {
    std::string_view view = line;
    if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
    if (trim(view).empty()) continue;
    if (!header_seen) {
      header_seen = true;
      continue;
    }
    const auto fields = split(view);
    double x;
    if (fields.size() != 3 || !parse_value(fields[2], x)) {
      ++stats.malformed;
      continue;
    }
    stats.min = n == 0 ? x : std::min(stats.min, x);
    stats.max = n == 0 ? x : std::max(stats.max, x);
    ++n;
    sum += x;
    const double delta = x - welford_mean;
    welford_mean += delta / static_cast<double>(n);
    m2 += delta * (x - welford_mean);
  }
  stats.rows = n;
  stats.mean = sum / static_cast<double>(n + 1);  // the deliberate bug: should be n
  stats.stddev = n > 0 ? std::sqrt(m2 / static_cast<double>(n)) : 0;
  return stats;
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
