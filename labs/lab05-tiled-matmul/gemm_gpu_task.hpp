#pragma once
// Lab 05 (grader-owned, host code): runs one GPU matrix product the way every lab05 task
// does, so the student's functions and the reference's extra variants are measured
// identically. The function under test gets device pointers; the driver owns the
// allocations and the transfers, timed apart from the kernels.
#include <vector>

#include "gemm_fresh_inputs.hpp"
#include "gemm_problem.hpp"
#include "parlab/harness/driver.hpp"
#include "parlab/harness/gpu/device_buffer.hpp"
#include "parlab/harness/gpu/gpu_timing.hpp"

namespace lab05 {

// `gemm(A, B, C, M, N, K)` launches kernels on device pointers. Device time of the
// call only (CUDA events, warm-up excluded, L2 flushed before each sample); C is
// poisoned (NaN) before every call, so elements never written fail the comparison.
// Every timed call after the first gets new A and B, its C checked on a sample.
template <class Gemm>
void run_gpu_gemm(parlab::harness::TaskContext& ctx, const char* function, Gemm&& gemm) {
  namespace g = parlab::harness::gpu;
  const GemmProblem p = load_problem(ctx.dataset_dir());
  g::DeviceBuffer<float> a(p.a.size()), b(p.b.size()), c(p.c_count());
  g::timed_phase(ctx, "host_to_device", [&] {
    a.upload(p.a);
    b.upload(p.b);
  });
  GemmFreshInputs fresh(p, a, b, c);
  const g::FreshInputs steps = fresh.steps();
  g::gpu_timed(
      ctx, function, [&] { c.poison(); },
      [&] { gemm(a.get(), b.get(), c.get(), p.m, p.n, p.k); }, &steps);
  std::vector<float> host;
  g::timed_phase(ctx, "device_to_host", [&] { host = c.download(); });
  ctx.set_work(gemm_bytes(p), gemm_flops(p));
  write_c(ctx.out(), std::span<const float>(host), p.m, p.n);
}

// The whole round trip as one sample: copy A and B to the GPU, multiply, copy C back.
// This is what a program that has its data on the host pays, and what the CPU has to
// beat (README.md, "When the GPU loses"). Every timed trip after the first carries new
// A and B, as in run_gpu_gemm: a product kept by pointer earned this test's points on
// an H200 when every trip carried the dataset again.
template <class Gemm>
void run_gpu_gemm_roundtrip(parlab::harness::TaskContext& ctx, const char* function,
                            Gemm&& gemm) {
  namespace g = parlab::harness::gpu;
  const GemmProblem p = load_problem(ctx.dataset_dir());
  g::DeviceBuffer<float> a(p.a.size()), b(p.b.size()), c(p.c_count());
  std::vector<float> host;
  GemmFreshInputs fresh(p, a, b, c);
  const g::FreshInputs steps = fresh.steps();
  ctx.set_sample_label("round_trip");  // a sample is the whole trip, not the kernel alone
  g::gpu_timed(
      ctx, function, [&] { c.poison(); },
      [&] {
        a.upload(fresh.host_a());
        b.upload(fresh.host_b());
        gemm(a.get(), b.get(), c.get(), p.m, p.n, p.k);
        // A launch error belongs to the student's function, not to the copy below.
        const cudaError_t launch = cudaPeekAtLastError();
        if (launch != cudaSuccess) g::check_student_call(function);
        try {
          host = c.download();
        } catch (const g::CudaError& e) {
          throw g::CudaError(std::string(e.what()) + " (copying C back after " + function +
                             ": its kernel most likely failed; an out-of-bounds access is "
                             "the usual cause)");
        }
      },
      &steps);
  ctx.set_work(gemm_bytes(p), gemm_flops(p));
  write_c(ctx.out(), std::span<const float>(host), p.m, p.n);
}

}  // namespace lab05
