// Typed access to key=value parameters. Every failure names the key and quotes the
// value, so a typo in lab.toml or on the command line reads as what it is.
#include "parlab/harness/params.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

namespace parlab {
namespace {

std::string_view trim(std::string_view s) {
  const char* space = " \t\r\n";
  const auto first = s.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(space);
  return s.substr(first, last - first + 1);
}

[[noreturn]] void bad_value(const std::string& key, const std::string& value,
                            const char* expected) {
  throw ParamError("parameter '" + key + "': expected " + expected + ", got '" + value + "'");
}

std::int64_t parse_int(const std::string& key, const std::string& value) {
  const std::string_view text = trim(value);
  std::int64_t result = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), result);
  if (ec == std::errc::result_out_of_range) bad_value(key, value, "an integer in int64 range");
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    bad_value(key, value, "an integer");
  }
  return result;
}

// Finite numbers only: NaN or infinity as a parameter is always a mistake here.
double parse_double(const std::string& key, const std::string& value) {
  const std::string_view text = trim(value);
  double result = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), result);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() ||
      !std::isfinite(result)) {
    bad_value(key, value, "a finite number");
  }
  return result;
}

bool parse_bool(const std::string& key, const std::string& value) {
  const std::string_view text = trim(value);
  for (const char* yes : {"true", "1", "yes", "on"}) {
    if (text == yes) return true;
  }
  for (const char* no : {"false", "0", "no", "off"}) {
    if (text == no) return false;
  }
  bad_value(key, value, "true or false");
}

}  // namespace

std::string Params::get_string(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw ParamError("missing parameter '" + key + "'");
  return it->second;
}

std::string Params::get_string(const std::string& key, const std::string& fallback) const {
  const auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second;
}

std::int64_t Params::get_int(const std::string& key) const {
  return parse_int(key, get_string(key));
}

std::int64_t Params::get_int(const std::string& key, std::int64_t fallback) const {
  return has(key) ? get_int(key) : fallback;
}

double Params::get_double(const std::string& key) const {
  return parse_double(key, get_string(key));
}

double Params::get_double(const std::string& key, double fallback) const {
  return has(key) ? get_double(key) : fallback;
}

bool Params::get_bool(const std::string& key, bool fallback) const {
  return has(key) ? parse_bool(key, get_string(key)) : fallback;
}

}  // namespace parlab
