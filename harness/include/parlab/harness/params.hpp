#pragma once
// Key=value parameters handed to a lab task (from `--param k=v`) or to a dataset
// generator (from lab.toml). Typed getters throw ParamError naming the key, so a bad
// value is reported as such instead of silently becoming 0.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace parlab {

class ParamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  void set(const std::string& key, std::string value) { values_[key] = std::move(value); }
  bool has(const std::string& key) const { return values_.count(key) != 0; }

  std::string get_string(const std::string& key) const;
  std::string get_string(const std::string& key, const std::string& fallback) const;
  std::int64_t get_int(const std::string& key) const;
  std::int64_t get_int(const std::string& key, std::int64_t fallback) const;
  double get_double(const std::string& key) const;
  double get_double(const std::string& key, double fallback) const;
  bool get_bool(const std::string& key, bool fallback) const;

  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace parlab
