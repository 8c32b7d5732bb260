#pragma once
// Trusted-side comparison of a submission's output arrays with the reference's
// (DESIGN invariant 3): exact, relative+absolute tolerance, or ULP distance. NaN never
// passes; an infinity matches only the same infinity; -0.0 equals 0.0.
#include <optional>
#include <string>
#include <vector>

#include "parlab/harness/arrays.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

// Element rule, exposed for tests. `dtype` picks float or double ULPs.
bool values_match(double expected, double got, const ComparatorSpec& spec,
                  harness::DType dtype, bool exact);

// Distance in units in the last place between two finite values of `dtype`.
std::uint64_t ulp_distance(double a, double b, harness::DType dtype);

std::string describe_tolerance(const ComparatorSpec& spec, bool exact);

struct CompareOutcome {
  bool ok = false;
  std::string message;              // teaching text when !ok
  std::optional<Mismatch> mismatch; // first element that differs, when there is one
};

CompareOutcome compare_outputs(const std::vector<harness::NamedArray>& expected,
                               const std::vector<harness::NamedArray>& got,
                               const ComparatorSpec& spec);

}  // namespace parlab::grader
