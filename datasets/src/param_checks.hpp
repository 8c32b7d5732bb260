#pragma once
// Checked reading of one generator's parameters, shared by every generator: each error
// names the generator and the parameter ("sensor_logs: parameter 'rows': must be in
// [0, 1000000000], got -1"), and unknown parameters are rejected, so a typo in
// lab.toml is not silently ignored.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "parlab/harness/params.hpp"

namespace parlab::datasets {

class ParamChecks {
 public:
  ParamChecks(std::string generator, const Params& params)
      : generator_(std::move(generator)), params_(params) {}

  // Throws ParamError "<generator>: parameter '<key>': <why>".
  [[noreturn]] void reject(const std::string& key, const std::string& why) const;

  // Rejects the first parameter not in `known`; `context` (e.g. "for kind 'heat'")
  // goes into the message after "unknown parameter".
  void only_known(const std::set<std::string>& known, const std::string& context = "") const;

  // An integer in [lo, hi]; without `fallback` the parameter is required.
  std::int64_t int_in(const std::string& key, std::int64_t lo, std::int64_t hi,
                      std::optional<std::int64_t> fallback = std::nullopt) const;
  double double_in(const std::string& key, double lo, double hi, double fallback) const;

  // One of the named choices; `fallback` when the parameter is absent.
  template <class Choice>
  Choice one_of(const std::string& key, Choice fallback,
                const std::vector<std::pair<std::string, Choice>>& choices) const {
    if (!params_.has(key)) return fallback;
    const std::string value = params_.get_string(key);
    std::string names;
    for (const auto& [name, choice] : choices) {
      if (value == name) return choice;
      names += (names.empty() ? "" : ", ") + name;
    }
    reject(key, "must be one of " + names + "; got '" + value + "'");
  }

  const Params& params() const { return params_; }

 private:
  std::string generator_;
  const Params& params_;
};

}  // namespace parlab::datasets
