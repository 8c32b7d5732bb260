#pragma once
// A thin checked view over a toml++ table: typed getters that throw SpecError with
// file:line:col, and expect_keys() so that no unknown key is given (typos are errors,
// not silently ignored settings).
#include <toml++/toml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "parlab/harness/params.hpp"

namespace parlab::grader {

std::string where(const std::string& file, const toml::source_region& region);

class TomlReader {
 public:
  TomlReader(const toml::table& table, std::string file, std::string context);

  std::string required_string(const std::string& key);
  std::optional<std::string> optional_string(const std::string& key);
  std::optional<double> optional_number(const std::string& key);
  std::optional<std::int64_t> optional_int(const std::string& key);
  std::optional<bool> optional_bool(const std::string& key);
  std::vector<std::string> string_list(const std::string& key);
  const toml::table* optional_table(const std::string& key);
  const toml::node* node(const std::string& key);  // nullptr if absent
  // A table of scalars -> Params (numbers and bools printed as text).
  Params params(const std::string& key);

  // Throws for the first key of the table not in `known`: called first, so a typo is
  // reported as such rather than as the missing key it was meant to be.
  void expect_keys(std::initializer_list<const char*> known) const;

  [[noreturn]] void fail(const toml::node* at, const std::string& message) const;
  std::string location(const toml::node* at) const;
  const std::string& file() const { return file_; }

 private:
  const toml::table& table_;
  std::string file_;
  std::string context_;
};

}  // namespace parlab::grader
