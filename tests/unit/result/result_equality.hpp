#pragma once
// Field-by-field comparison of results for the round-trip tests. Written out by hand
// (the structs have no operator==) and CHECKed per field, so a failure names the field.
#include "result/result.hpp"

namespace parlab::grader::testing {

// NaN equals NaN here: a lossless round trip must keep the student's NaN.
bool same_number(double a, double b);

void check_same(const GradeResult& a, const GradeResult& b);

}  // namespace parlab::grader::testing
