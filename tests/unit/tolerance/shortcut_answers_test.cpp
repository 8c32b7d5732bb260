// The shortcut answers of tests/tolerance and the verdict of the grader's comparator on
// them: a tight tolerance fails them all, a loose or absolute-only one is caught.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "parlab/harness/arrays.hpp"
#include "shortcut_answers.hpp"

using namespace parlab::tolerance;
using parlab::harness::DType;
using parlab::harness::NamedArray;

namespace {

NamedArray array(const std::string& name, std::vector<double> values, DType dtype = DType::f64) {
  NamedArray a;
  a.name = name;
  a.dtype = dtype;
  a.values = std::move(values);
  if (parlab::harness::is_integer_dtype(dtype))
    for (double v : a.values) a.integers.push_back(static_cast<std::int64_t>(v));
  return a;
}

parlab::grader::ComparatorSpec tolerance(double rtol, double atol) {
  parlab::grader::ComparatorSpec s;
  s.kind = parlab::grader::ComparatorSpec::Kind::tolerance;
  s.rtol = rtol;
  s.atol = atol;
  return s;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const Arrays kExpected = {array("out", {1.2345678, -2.3456789, 100.123, 0.5})};
const Arrays kInputs = {array("a", {1.0, 2.0, 3.0, 4.0}), array("n", {4.0}, DType::i32)};
const std::vector<OtherOutputs> kOthers = {{"other dataset", {array("out", {1.3, -2.2, 99.0, 0.4})}},
                                           {"other shape", {array("out", {1.0, 2.0})}}};

}  // namespace

TEST_CASE("every shortcut is made where its shape allows") {
  std::vector<std::string> names;
  for (const Shortcut& s : shortcut_answers(kExpected, kInputs, kOthers)) {
    names.push_back(s.name);
    REQUIRE(s.outputs.size() == 1);
    CHECK(s.outputs[0].name == "out");
    CHECK(s.outputs[0].values.size() == 4);
  }
  CHECK(has(names, "all zeros"));
  CHECK(has(names, "the constant 1"));
  CHECK(has(names, "a constant (each output's mean)"));
  CHECK(has(names, "NaN"));
  CHECK(has(names, "the expected outputs rounded to half precision"));
  CHECK(has(names, "a copy of input 'a' (zeros elsewhere)"));
  CHECK_FALSE(has(names, "a copy of input 'n' (zeros elsewhere)"));  // one element, not four
  CHECK(has(names, "the outputs of test 'other dataset'"));
  CHECK_FALSE(has(names, "the outputs of test 'other shape'"));
}

TEST_CASE("half precision keeps about three digits") {
  for (const Shortcut& s : shortcut_answers(kExpected, {}, {})) {
    if (s.name != "the expected outputs rounded to half precision") continue;
    CHECK(s.outputs[0].values[0] != kExpected[0].values[0]);
    CHECK(std::fabs(s.outputs[0].values[0] - kExpected[0].values[0]) < 1e-3);
    CHECK(s.outputs[0].values[3] == 0.5);  // exact in half
  }
}

TEST_CASE("a tight relative and absolute tolerance fails every shortcut") {
  CHECK(passing_shortcuts(kExpected, kInputs, kOthers, tolerance(1e-5, 1e-5)).empty());
}

TEST_CASE("a loose tolerance lets shortcuts pass, and they are named") {
  const auto passing = passing_shortcuts(kExpected, kInputs, kOthers, tolerance(0.2, 0.2));
  CHECK(has(passing, "the expected outputs rounded to half precision"));
  CHECK(has(passing, "the outputs of test 'other dataset'"));
  CHECK_FALSE(has(passing, "NaN"));  // NaN never passes
  CHECK(has(passing_shortcuts(kExpected, {}, {}, tolerance(0, 200)), "all zeros"));
}

TEST_CASE("an absolute bound alone passes zeros on small outputs and is refused") {
  const Arrays small = {array("out", {3e-5, 7e-5, 1e-5})};
  CHECK(has(passing_shortcuts(small, {}, {}, tolerance(0, 1e-4)), "all zeros"));
  CHECK_FALSE(missing_relative_bound(tolerance(0, 1e-4)).empty());
  CHECK(missing_relative_bound(tolerance(1e-6, 1e-4)).empty());
}

TEST_CASE("a shortcut equal to the expected outputs is set apart, not counted as passing") {
  parlab::grader::ComparatorSpec exact;
  exact.kind = parlab::grader::ComparatorSpec::Kind::exact;
  const Arrays zeros = {array("counts", {0, 0, 0}, DType::i64)};
  CHECK(passing_shortcuts(zeros, {}, {}, exact).empty());
  CHECK(equals_expected(zeros, shortcut_answers(zeros, {}, {}).front()));  // "all zeros"
  const Arrays counts = {array("counts", {0, 3, 0}, DType::i64)};
  CHECK(passing_shortcuts(counts, {}, {}, exact).empty());
}
