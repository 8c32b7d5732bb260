#pragma once
// Answers a submission could give without doing a test's work, made from the test's
// expected outputs: all zeros, a constant, NaN, a copy of an input, another test's
// outputs, and the expected outputs rounded to half precision (a proxy for fp16 math).
// A test's tolerance must fail every one of them (docs/scoring.md, "Tolerances no
// shortcut fits").
#include <string>
#include <vector>

#include "parlab/harness/arrays.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::tolerance {

using Arrays = std::vector<harness::NamedArray>;

struct Shortcut {
  std::string name;  // "all zeros", "a copy of input 'a'", ...
  Arrays outputs;    // the same arrays, names and sizes as the expected outputs
};

// Another test's expected outputs, offered as this test's answer when the shapes match.
struct OtherOutputs {
  std::string test;
  Arrays outputs;
};

// Every shortcut that applies to `expected`: a copy of an input only where an input has
// an output's size; another test's outputs only where all names and sizes match; NaN and
// half precision only where an output holds floats; the mean only where every output
// holds two different values (else the mean is the answer).
std::vector<Shortcut> shortcut_answers(const Arrays& expected, const Arrays& inputs,
                                       const std::vector<OtherOutputs>& others);

// A shortcut equal, value for value, to the expected outputs is the answer on this data
// (the one element of a one-element test, a boundary-only grid copied from the input):
// no tolerance can fail it, so it is set apart from those that pass.
bool equals_expected(const Arrays& expected, const Shortcut& s);

// The names of the shortcuts that the grader's comparator, with `spec`, accepts, but
// for those equal to the expected outputs.
std::vector<std::string> passing_shortcuts(const Arrays& expected, const Arrays& inputs,
                                           const std::vector<OtherOutputs>& others,
                                           const grader::ComparatorSpec& spec);

// Why a tolerance comparison has no relative bound, or "" when it has one: an absolute
// bound alone passes zeros wherever the outputs are small.
std::string missing_relative_bound(const grader::ComparatorSpec& spec);

}  // namespace parlab::tolerance
