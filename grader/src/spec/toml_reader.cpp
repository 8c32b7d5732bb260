#include "spec/toml_reader.hpp"

#include <sstream>

#include "core/errors.hpp"

namespace parlab::grader {

std::string where(const std::string& file, const toml::source_region& region) {
  std::ostringstream out;
  out << file << ':' << region.begin.line << ':' << region.begin.column;
  return out.str();
}

TomlReader::TomlReader(const toml::table& table, std::string file, std::string context)
    : table_(table), file_(std::move(file)), context_(std::move(context)) {}

std::string TomlReader::location(const toml::node* at) const {
  return where(file_, at ? at->source() : table_.source());
}

void TomlReader::fail(const toml::node* at, const std::string& message) const {
  throw SpecError(location(at) + ": " + context_ + ": " + message);
}

const toml::node* TomlReader::node(const std::string& key) {
  return table_.get(key);
}

std::string TomlReader::required_string(const std::string& key) {
  auto value = optional_string(key);
  if (!value) fail(nullptr, "missing required key '" + key + "'");
  return *value;
}

std::optional<std::string> TomlReader::optional_string(const std::string& key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (auto s = n->value<std::string>(); s && n->is_string()) {
    if (s->empty()) fail(n, "'" + key + "' must not be empty");
    return *s;
  }
  fail(n, "'" + key + "' must be a string");
}

std::optional<double> TomlReader::optional_number(const std::string& key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (!n->is_number()) fail(n, "'" + key + "' must be a number");
  return n->value<double>();
}

std::optional<std::int64_t> TomlReader::optional_int(const std::string& key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (!n->is_integer()) fail(n, "'" + key + "' must be an integer");
  return n->value<std::int64_t>();
}

std::optional<bool> TomlReader::optional_bool(const std::string& key) {
  const toml::node* n = node(key);
  if (!n) return std::nullopt;
  if (!n->is_boolean()) fail(n, "'" + key + "' must be true or false");
  return n->value<bool>();
}

std::vector<std::string> TomlReader::string_list(const std::string& key) {
  std::vector<std::string> out;
  const toml::node* n = node(key);
  if (!n) return out;
  const toml::array* arr = n->as_array();
  if (!arr) fail(n, "'" + key + "' must be a list of strings");
  for (const toml::node& item : *arr) {
    if (!item.is_string()) fail(&item, "'" + key + "' must contain only strings");
    out.push_back(*item.value<std::string>());
  }
  return out;
}

const toml::table* TomlReader::optional_table(const std::string& key) {
  const toml::node* n = node(key);
  if (!n) return nullptr;
  if (!n->is_table()) fail(n, "'" + key + "' must be a table");
  return n->as_table();
}

Params TomlReader::params(const std::string& key) {
  Params out;
  const toml::table* t = optional_table(key);
  if (!t) return out;
  for (const auto& [k, v] : *t) {
    std::string name(k.str());
    if (v.is_string()) {
      out.set(name, *v.value<std::string>());
    } else if (v.is_integer()) {
      out.set(name, std::to_string(*v.value<std::int64_t>()));
    } else if (v.is_floating_point()) {
      std::ostringstream s;
      s.precision(17);
      s << *v.value<double>();
      out.set(name, s.str());
    } else if (v.is_boolean()) {
      out.set(name, *v.value<bool>() ? "true" : "false");
    } else {
      fail(&v, "parameter '" + name + "' must be a string, number or boolean");
    }
  }
  return out;
}

void TomlReader::expect_keys(std::initializer_list<const char*> known) const {
  for (const auto& [k, v] : table_) {
    bool ok = false;
    for (const char* name : known) ok |= k.str() == name;
    if (ok) continue;
    std::string list;
    for (const char* name : known) list += (list.empty() ? "" : ", ") + std::string(name);
    fail(&v, "unknown key '" + std::string(k.str()) + "' (known here: " + list + ")");
  }
}

}  // namespace parlab::grader
