#include "process/human_units.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace parlab::grader::process {
namespace {

// "%.1f" without a trailing ".0".
std::string one_decimal(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f", value);
  std::string s = text;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

}  // namespace

std::string format_seconds(double seconds) { return one_decimal(seconds) + " s"; }

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 4> kUnits = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  value /= 1024;
  while (unit + 1 < kUnits.size() && value >= 1024) {
    value /= 1024;
    ++unit;
  }
  return one_decimal(value) + " " + kUnits[unit];
}

}  // namespace parlab::grader::process
