#include "util/number_format.hpp"

#include <cmath>
#include <cstdio>

namespace parlab::grader {

std::string format_number(double value, int significant) {
  if (std::isnan(value)) return "NaN";  // printf writes "-nan" for a negative NaN
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
  std::string text = buffer;
  return text == "-0" ? "0" : text;
}

NumberPair format_number_pair(double first, double second) {
  for (int digits = 6; digits <= 17; ++digits) {
    NumberPair pair{format_number(first, digits), format_number(second, digits)};
    if (pair.first != pair.second) return pair;
  }
  return {format_number(first), format_number(second)};
}

}  // namespace parlab::grader
