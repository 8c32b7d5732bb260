#include "compile/nvcc_macro_names.hpp"

#include <algorithm>
#include <vector>

namespace parlab::grader {
namespace {

// grader/data/*.txt as one string each (grader/CMakeLists.txt).
constexpr std::string_view kNvccNames =
#include "compile/nvcc_macro_names_list.inc"
    ;
constexpr std::string_view kDefinedInOneNames =
#include "compile/defined_in_one_list.inc"
    ;

// The names of a list, one a line, sorted.
std::vector<std::string_view> sorted_lines(std::string_view list) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < list.size()) {
    const std::size_t end = std::min(list.find('\n', i), list.size());
    if (end > i) out.push_back(list.substr(i, end - i));
    i = end + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool holds(const std::vector<std::string_view>& names, std::string_view name) {
  return std::binary_search(names.begin(), names.end(), name);
}

}  // namespace

bool nvcc_may_define(std::string_view name) {
  static const std::vector<std::string_view> names = sorted_lines(kNvccNames);
  return holds(names, name);
}

bool defined_in_one_only(std::string_view name) {
  static const std::vector<std::string_view> names = sorted_lines(kDefinedInOneNames);
  return holds(names, name);
}

}  // namespace parlab::grader
