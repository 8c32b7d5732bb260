#pragma once
// The one way numbers are written for people (reports, messages): NaN as "NaN", never
// "-nan"; infinities as "inf"/"-inf"; a fixed number of significant digits, never 17.
// Machine formats (JSON) keep full precision and do not use this.
#include <string>

namespace parlab::grader {

// `significant` digits, %g style ("20.5", "1.5e-07", "NaN", "inf", "-inf").
std::string format_number(double value, int significant = 6);

// Two values shown side by side (expected, got) with the fewest significant digits,
// from 6 up to 17, that make them differ on the page: 1.0000001 vs 1.0000002 is not
// written as "1 vs 1". Values equal to the last bit use 6.
struct NumberPair {
  std::string first;
  std::string second;
};
NumberPair format_number_pair(double first, double second);

}  // namespace parlab::grader
