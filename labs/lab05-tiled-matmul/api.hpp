#pragma once
// Lab 05: tiled matrix multiplication. The fixed signatures your matmul.cu implements;
// the grader's driver.cpp calls them. Do not change this file: the grader compiles your
// matmul.cu against its own copy.
//
// Both functions compute the single-precision matrix product (SGEMM)
//
//     C = A * B        C[i][j] = sum over p of A[i][p] * B[p][j]
//
// with every matrix stored ROW-major in one contiguous array, no padding:
//     A is M x K:  A[i][p] is A[i * K + p]
//     B is K x N:  B[p][j] is B[p * N + j]
//     C is M x N:  C[i][j] is C[i * N + j]
// Each matrix has fewer than 2^31 elements, so int indices do not overflow.
//
// Rules both functions follow (README.md, "What to implement"):
//   - A, B and C are DEVICE pointers (the driver allocated them with cudaMalloc and
//     copied A and B to the GPU). Launch your kernel(s) on them; do not copy anything
//     back, do not allocate or free A, B or C.
//   - M, N, K are any sizes >= 1, NOT multiples of your tile or block size: 1, 15,
//     17, primes, very tall or very wide matrices. Every one of the M * N elements of
//     C must be written (C holds NaN when your function is called), and no thread may
//     read or write outside the three arrays.
//   - C is overwritten (not accumulated into): C = A * B.
//   - Accumulate in float; the grader's tolerance covers float rounding (README.md,
//     "How results are compared").
//   - Return right after launching: the driver synchronizes and checks for errors.
namespace lab05 {

// One thread per element of C, reading its row of A and column of B straight from
// global memory. The baseline the tiled kernel is measured against.
void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K);

// The same product with 16 x 16 tiles of A and B staged in shared memory: each block
// computes a 16 x 16 tile of C, each thread one element of it.
void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K);

}  // namespace lab05
