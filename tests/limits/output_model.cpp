#include "output_model.hpp"

#include <charconv>
#include <stdexcept>
#include <toml++/toml.h>

namespace parlab::limits {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::optional<std::uint64_t> as_integer(const std::string& text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::uint64_t factor_value(const std::string& factor, const std::string& expr, const Params& test,
                           const Params& dataset) {
  if (factor.empty()) throw std::runtime_error("empty factor in elements = \"" + expr + "\"");
  if (auto v = as_integer(factor)) return *v;
  const Params* from = test.has(factor) ? &test : dataset.has(factor) ? &dataset : nullptr;
  if (!from) {
    throw std::runtime_error("elements = \"" + expr + "\": parameter '" + factor +
                             "' is neither the test's nor the dataset's");
  }
  const std::string text = from->get_string(factor);
  auto v = as_integer(text);
  if (!v) {
    throw std::runtime_error("elements = \"" + expr + "\": parameter '" + factor + "' = '" + text +
                             "' is not a non-negative integer");
  }
  return *v;
}

int element_bytes(const toml::table& t, const std::string& key, const std::string& where) {
  const auto v = t[key].value<std::int64_t>();
  if (!v || (*v != 1 && *v != 2 && *v != 4 && *v != 8)) {
    throw std::runtime_error(where + ": '" + key + "' must be 1, 2, 4 or 8 (bytes per element)");
  }
  return static_cast<int>(*v);
}

}  // namespace

OutputModel load_output_model(const std::filesystem::path& toml_file) {
  toml::table root;
  try {
    root = toml::parse_file(toml_file.string());
  } catch (const toml::parse_error& e) {
    throw std::runtime_error(toml_file.string() + ": " + std::string(e.description()));
  }
  OutputModel model;
  for (const auto& [lab, lab_node] : root) {
    const auto* tasks = lab_node.as_table();
    if (!tasks) throw std::runtime_error(toml_file.string() + ": [" + std::string(lab) + "] must be a table");
    for (const auto& [task, task_node] : *tasks) {
      const auto* arrays = task_node.as_table();
      const std::string where = toml_file.string() + ": " + std::string(lab) + "." + std::string(task);
      if (!arrays) throw std::runtime_error(where + " must be a table of arrays");
      auto& list = model[std::string(lab)][std::string(task)];
      for (const auto& [name, array_node] : *arrays) {
        const auto* a = array_node.as_table();
        const std::string at = where + "." + std::string(name);
        if (!a) throw std::runtime_error(at + " must be { elements = ..., expected = ..., program = ... }");
        ArrayModel m;
        m.name = std::string(name);
        const auto elements = (*a)["elements"].value<std::string>();
        if (!elements) throw std::runtime_error(at + ": 'elements' (a string) is missing");
        m.elements = *elements;
        m.expected_bytes = element_bytes(*a, "expected", at);
        m.program_bytes = element_bytes(*a, "program", at);
        list.push_back(std::move(m));
      }
    }
  }
  return model;
}

std::uint64_t count_elements(const std::string& expr, const Params& test, const Params& dataset) {
  std::uint64_t product = 1;
  std::size_t start = 0;
  while (true) {
    const std::size_t star = expr.find('*', start);
    const std::string factor = trim(expr.substr(start, star == std::string::npos ? std::string::npos : star - start));
    const std::uint64_t v = factor_value(factor, expr, test, dataset);
    if (v != 0 && product > UINT64_MAX / v) throw std::runtime_error("elements = \"" + expr + "\" overflows");
    product *= v;
    if (star == std::string::npos) return product;
    start = star + 1;
  }
}

std::vector<ArrayBytes> output_bytes(const std::vector<ArrayModel>& arrays, Writer writer,
                                     const Params& test, const Params& dataset) {
  std::vector<ArrayBytes> out;
  for (const ArrayModel& a : arrays) {
    const std::uint64_t n = count_elements(a.elements, test, dataset);
    const int size = writer == Writer::expected ? a.expected_bytes : a.program_bytes;
    out.push_back({a.name, n, n * static_cast<std::uint64_t>(size)});
  }
  return out;
}

}  // namespace parlab::limits
