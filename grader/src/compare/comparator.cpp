#include "compare/comparator.hpp"

#include "compare/mismatch_pattern.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "util/number_format.hpp"

namespace parlab::grader {
namespace {

// Maps a float's bits onto a line where adjacent floats are adjacent integers
// (negative values mirrored, -0.0 and 0.0 both at 0), so ULP distance is a difference.
template <class Float>
std::int64_t ordered_bits(Float x) {
  using U = std::conditional_t<sizeof(Float) == 4, std::uint32_t, std::uint64_t>;
  U bits = std::bit_cast<U>(x);
  constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
  auto magnitude = static_cast<std::int64_t>(bits & ~sign);
  return (bits & sign) ? -magnitude : magnitude;
}

const harness::NamedArray* find(const std::vector<harness::NamedArray>& arrays,
                                const std::string& name) {
  for (const auto& a : arrays) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const OutputFeedback& feedback_for(const ComparatorSpec& spec, const std::string& name) {
  static const OutputFeedback none;
  auto it = spec.outputs.find(name);
  return it == spec.outputs.end() ? none : it->second;
}

// " Hint: ..." for the first kind the lab declared a hint for, or "".
std::string hint_text(const MismatchPattern& pattern, const OutputFeedback& feedback) {
  const std::string hint = hint_for(pattern, feedback.hints);
  return hint.empty() ? "" : ". Hint: " + hint;
}

}  // namespace

std::uint64_t ulp_distance(double a, double b, harness::DType dtype) {
  std::int64_t ia, ib;
  if (dtype == harness::DType::f32) {
    ia = ordered_bits(static_cast<float>(a));
    ib = ordered_bits(static_cast<float>(b));
  } else {
    ia = ordered_bits(a);
    ib = ordered_bits(b);
  }
  // Unsigned subtraction: the true distance can exceed INT64_MAX across zero.
  return ia >= ib ? static_cast<std::uint64_t>(ia) - static_cast<std::uint64_t>(ib)
                  : static_cast<std::uint64_t>(ib) - static_cast<std::uint64_t>(ia);
}

bool values_match(double expected, double got, const ComparatorSpec& spec, harness::DType dtype,
                  bool exact) {
  if (std::isnan(expected) || std::isnan(got)) return false;
  if (std::isinf(expected) || std::isinf(got)) return expected == got;
  if (exact || spec.kind == ComparatorSpec::Kind::exact) return expected == got;
  if (spec.kind == ComparatorSpec::Kind::ulp) {
    return ulp_distance(expected, got, dtype) <= static_cast<std::uint64_t>(spec.max_ulp);
  }
  return std::fabs(got - expected) <= spec.atol + spec.rtol * std::fabs(expected);
}

std::string describe_tolerance(const ComparatorSpec& spec, bool exact) {
  if (exact || spec.kind == ComparatorSpec::Kind::exact) return "exact";
  char buf[96];
  if (spec.kind == ComparatorSpec::Kind::ulp) {
    std::snprintf(buf, sizeof buf, "within %lld ULP", static_cast<long long>(spec.max_ulp));
  } else {
    std::snprintf(buf, sizeof buf, "|got - expected| <= %g + %g * |expected|", spec.atol,
                  spec.rtol);
  }
  return buf;
}

namespace {

// One array's comparison: the message and pattern of its first mismatch, or none.
struct ArrayMismatch {
  CompareOutcome outcome;
  MismatchPattern pattern;
};

std::optional<ArrayMismatch> compare_array(const harness::NamedArray& e, const harness::NamedArray& g,
                                           const ComparatorSpec& spec, const OutputFeedback& feedback,
                                           bool nothing_computed) {
  bool exact = std::find(spec.exact_arrays.begin(), spec.exact_arrays.end(), e.name) !=
               spec.exact_arrays.end();
  std::uint64_t bad = 0;
  std::optional<Mismatch> first;
  NumberPair first_integers;  // the exact values, when integers were compared
  // Integers compared exactly are compared as integers (doubles lose them above 2^53).
  const bool exact_integers = (exact || spec.kind == ComparatorSpec::Kind::exact) &&
                              e.integers.size() == e.values.size() &&
                              g.integers.size() == g.values.size();
  for (std::size_t i = 0; i < e.values.size(); ++i) {
    if (exact_integers ? e.integers[i] == g.integers[i]
                       : values_match(e.values[i], g.values[i], spec, e.dtype, exact))
      continue;
    if (!first) {
      Mismatch m;
      m.array = e.name;
      m.index = i;
      if (i < e.labels.size()) m.label = e.labels[i];
      // A matrix without element labels still says where: (row, col).
      if (m.label.empty() && feedback.columns > 0 &&
          e.values.size() % static_cast<std::size_t>(feedback.columns) == 0) {
        m.label = row_col_text(i, feedback.columns);
      }
      m.expected = e.values[i];
      m.got = g.values[i];
      if (exact_integers) {
        first_integers = {std::to_string(e.integers[i]), std::to_string(g.integers[i])};
      }
      m.tolerance = describe_tolerance(spec, exact);
      first = m;
    }
    ++bad;
  }
  if (!first) return std::nullopt;
  first->mismatches = bad;
  first->compared = e.values.size();
  ArrayMismatch out;
  std::string where = first->array + "[" + std::to_string(first->index) + "]";
  if (!first->label.empty()) where += " (" + first->label + ")";
  // Digits enough to tell the two apart, NaN spelled one way (util/number_format).
  const NumberPair values = first_integers.first.empty()
                                ? format_number_pair(first->expected, first->got)
                                : first_integers;
  out.outcome.message = where + ": expected " + values.first + ", got " + values.second + " (" +
                        first->tolerance + "); " + std::to_string(bad) + " of " +
                        std::to_string(e.values.size()) + " elements differ";
  out.pattern = classify_mismatches(e, g, spec, exact, feedback.columns, nothing_computed);
  if (!out.pattern.detail.empty()) {
    std::string detail = out.pattern.detail;
    detail[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(detail[0])));
    out.outcome.message += ". " + detail;
  }
  std::string hint = hint_text(out.pattern, feedback);
  if (!hint.empty() && out.outcome.message.back() == '?') hint.erase(0, 1);  // "yet? Hint:"
  out.outcome.message += hint;
  out.outcome.mismatch = first;
  return out;
}

// Elements never written or NaN are the more basic fault: a count computed from them
// (lab03's steps) is wrong as a consequence, so its hint would name the wrong cause.
bool poisoned_values(const MismatchPattern& p) {
  return !p.kinds.empty() && (p.kinds.front() == "unwritten" || p.kinds.front() == "unloaded_shared" ||
                              p.kinds.front() == "nan");
}

}  // namespace

CompareOutcome compare_outputs(const std::vector<harness::NamedArray>& expected,
                               const std::vector<harness::NamedArray>& got,
                               const ComparatorSpec& spec) {
  CompareOutcome out;
  // A skeleton writes none of its outputs, or only zeros.
  const bool nothing_computed = !got.empty() && std::all_of(got.begin(), got.end(), output_untouched);
  std::vector<ArrayMismatch> wrong;
  for (const auto& e : expected) {
    const harness::NamedArray* g = find(got, e.name);
    const OutputFeedback& feedback = feedback_for(spec, e.name);
    if (!g) {
      out.message = "output '" + e.name + "' is missing: the program did not produce it" +
                    hint_text({{"missing", "any"}, ""}, feedback);
      return out;
    }
    if (g->values.size() != e.values.size()) {
      out.message = "output '" + e.name + "' has " + std::to_string(g->values.size()) +
                    " elements, expected " + std::to_string(e.values.size()) +
                    hint_text({{"size", "any"}, ""}, feedback);
      return out;
    }
    if (auto m = compare_array(e, *g, spec, feedback, nothing_computed)) wrong.push_back(std::move(*m));
  }
  if (wrong.empty()) {
    out.ok = true;
    return out;
  }
  // The first array in the lab's order, unless a later one holds the poison or NaN
  // (a skeleton's outputs all do: its first one is said, with no cause).
  auto chosen = wrong.begin();
  if (!nothing_computed) {
    chosen = std::find_if(wrong.begin(), wrong.end(),
                          [](const ArrayMismatch& m) { return poisoned_values(m.pattern); });
    if (chosen == wrong.end()) chosen = wrong.begin();
  }
  out = chosen->outcome;
  if (nothing_computed) return out;
  for (const ArrayMismatch& other : wrong) {
    if (&other == &*chosen) continue;
    out.message += " ('" + other.outcome.mismatch->array + "' differs too)";
  }
  return out;
}

}  // namespace parlab::grader
