#include "compile/nvcc_macro_names.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace parlab::grader {
namespace {

// grader/data/nvcc_macro_names.txt as one string (grader/CMakeLists.txt).
constexpr std::string_view kNames =
#include "compile/nvcc_macro_names_list.inc"
    ;

const std::vector<std::string_view>& sorted_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < kNames.size()) {
      const std::size_t end = std::min(kNames.find('\n', i), kNames.size());
      if (end > i) out.push_back(kNames.substr(i, end - i));
      i = end + 1;
    }
    std::sort(out.begin(), out.end());
    return out;
  }();
  return names;
}

}  // namespace

bool nvcc_may_define(std::string_view name) {
  const std::vector<std::string_view>& names = sorted_names();
  return std::binary_search(names.begin(), names.end(), name);
}

}  // namespace parlab::grader
