#include "shortcut_answers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "compare/comparator.hpp"

namespace parlab::tolerance {
namespace {

using harness::DType;
using harness::NamedArray;

bool is_float(const NamedArray& a) { return !harness::is_integer_dtype(a.dtype); }

// An answer array shaped like `like`, holding `values` (integers rounded, as a program
// writing i32/i64 would).
NamedArray answer_like(const NamedArray& like, std::vector<double> values) {
  NamedArray a;
  a.name = like.name;
  a.dtype = like.dtype;
  a.labels = like.labels;
  a.values = std::move(values);
  if (!is_float(like)) {
    for (double& v : a.values) v = std::isfinite(v) ? std::llround(v) : 0.0;
    for (double v : a.values) a.integers.push_back(static_cast<std::int64_t>(v));
  }
  return a;
}

template <class Make>
Arrays each_array(const Arrays& expected, Make make) {
  Arrays out;
  for (const NamedArray& e : expected) out.push_back(answer_like(e, make(e)));
  return out;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

// What fp16 arithmetic keeps of a value: its nearest half (an infinity past 65504).
double to_half(double v) { return static_cast<double>(static_cast<_Float16>(v)); }

bool varies(const NamedArray& a) {
  return std::any_of(a.values.begin(), a.values.end(), [&](double v) { return v != a.values.front(); });
}

bool same_shape(const Arrays& a, const Arrays& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].values.size() != b[i].values.size()) return false;
  return true;
}

void add_input_copies(const Arrays& expected, const Arrays& inputs, std::vector<Shortcut>& out) {
  for (const NamedArray& in : inputs) {
    bool fits = false;
    Arrays answer = each_array(expected, [&](const NamedArray& e) {
      if (e.values.size() != in.values.size()) return std::vector<double>(e.values.size(), 0.0);
      fits = true;
      return in.values;
    });
    if (fits) out.push_back({"a copy of input '" + in.name + "' (zeros elsewhere)", std::move(answer)});
  }
}

}  // namespace

std::vector<Shortcut> shortcut_answers(const Arrays& expected, const Arrays& inputs,
                                       const std::vector<OtherOutputs>& others) {
  std::vector<Shortcut> out;
  auto constant = [](double c) {
    return [c](const NamedArray& e) { return std::vector<double>(e.values.size(), c); };
  };
  out.push_back({"all zeros", each_array(expected, constant(0.0))});
  out.push_back({"the constant 1", each_array(expected, constant(1.0))});
  if (std::all_of(expected.begin(), expected.end(), varies)) {
    out.push_back({"a constant (each output's mean)", each_array(expected, [](const NamedArray& e) {
                     return std::vector<double>(e.values.size(), mean(e.values));
                   })});
  }
  bool floats = false;
  for (const NamedArray& e : expected) floats = floats || is_float(e);
  if (floats) {
    out.push_back({"NaN", each_array(expected, [&](const NamedArray& e) {
                     const double v = is_float(e) ? std::numeric_limits<double>::quiet_NaN() : 0.0;
                     return std::vector<double>(e.values.size(), v);
                   })});
    out.push_back({"the expected outputs rounded to half precision",
                   each_array(expected, [](const NamedArray& e) {
                     std::vector<double> v = e.values;
                     if (is_float(e))
                       for (double& x : v) x = to_half(x);
                     return v;
                   })});
  }
  add_input_copies(expected, inputs, out);
  for (const OtherOutputs& o : others) {
    if (same_shape(expected, o.outputs)) out.push_back({"the outputs of test '" + o.test + "'", o.outputs});
  }
  return out;
}

bool equals_expected(const Arrays& expected, const Shortcut& s) {
  if (!same_shape(expected, s.outputs)) return false;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (expected[i].values != s.outputs[i].values) return false;
  return true;
}

std::vector<std::string> passing_shortcuts(const Arrays& expected, const Arrays& inputs,
                                           const std::vector<OtherOutputs>& others,
                                           const grader::ComparatorSpec& spec) {
  std::vector<std::string> passing;
  for (const Shortcut& s : shortcut_answers(expected, inputs, others)) {
    if (!equals_expected(expected, s) && grader::compare_outputs(expected, s.outputs, spec).ok)
      passing.push_back(s.name);
  }
  return passing;
}

std::string missing_relative_bound(const grader::ComparatorSpec& spec) {
  if (spec.kind != grader::ComparatorSpec::Kind::tolerance || spec.rtol > 0) return "";
  return "its tolerance has no relative bound (rtol = 0, atol = " + std::to_string(spec.atol) +
         "): an absolute bound alone passes zeros wherever the outputs are smaller than it";
}

}  // namespace parlab::tolerance
