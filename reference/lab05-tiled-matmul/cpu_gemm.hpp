#pragma once
// Lab 05 CPU reference: the matrix product in double precision, multi-threaded. The
// source of every expected output (float products are exact in double, and a double
// sum of K of them is accurate to ~K * 1e-16 relative: far below the tolerance).
#include <vector>

#include "gemm_problem.hpp"

namespace lab05 {

// C = A * B (M x N, row-major, double). `threads` >= 1.
std::vector<double> cpu_gemm(const GemmProblem& p, unsigned threads);

}  // namespace lab05
