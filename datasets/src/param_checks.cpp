#include "param_checks.hpp"

#include <charconv>

namespace parlab::datasets {
namespace {

// Shortest text that reads back to the same double: "0.05", not "0.050000".
std::string shortest(double v) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

}  // namespace

void ParamChecks::reject(const std::string& key, const std::string& why) const {
  throw ParamError(generator_ + ": parameter '" + key + "': " + why);
}

void ParamChecks::only_known(const std::set<std::string>& known, const std::string& context) const {
  for (const auto& [key, value] : params_.values()) {
    if (known.count(key)) continue;
    std::string names;
    for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
    reject(key, "unknown parameter" + (context.empty() ? "" : " " + context) + " (known: " + names + ")");
  }
}

std::int64_t ParamChecks::int_in(const std::string& key, std::int64_t lo, std::int64_t hi,
                                 std::optional<std::int64_t> fallback) const {
  if (!params_.has(key) && !fallback) reject(key, "is required");
  const std::int64_t v = fallback ? params_.get_int(key, *fallback) : params_.get_int(key);
  if (v < lo || v > hi) {
    reject(key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                    std::to_string(v));
  }
  return v;
}

double ParamChecks::double_in(const std::string& key, double lo, double hi, double fallback) const {
  const double v = params_.get_double(key, fallback);
  if (!(v >= lo && v <= hi)) {
    reject(key, "must be in [" + shortest(lo) + ", " + shortest(hi) + "], got " + shortest(v));
  }
  return v;
}

}  // namespace parlab::datasets
