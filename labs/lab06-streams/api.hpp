#pragma once
// Lab 06: streams, asynchronous copies and pinned memory. The fixed signatures your
// streams.cu implements; the grader's driver.cpp calls them. Do not change this file:
// the grader compiles your streams.cu against its own copy.
//
// The work is deliberately simple, so that the lab is about moving data, not about the
// kernel: every element goes through `iterations` steps of a damped accumulation,
//     y = 0;  repeat iterations times:  y = kDecay * y + x      (one fmaf per step)
// computed in float. The grader compares with the exact value in double precision,
// x * (1 - kDecay^iterations) / (1 - kDecay), within a relative tolerance.
//
// Rules every function below follows (README.md explains why):
//   - d_in and d_out are DEVICE buffers of n floats (cudaMalloc'd by the driver);
//     host_in and host_out are HOST buffers of n floats. The outputs arrive POISONED
//     (every byte 0xFF: NaN), so an element you never write fails the comparison.
//   - n >= 1 (up to 2^28); 0 <= iterations <= 100000.
//   - round_trip and pipelined return only when host_out holds every result: wait for
//     your copies (cudaStreamSynchronize, or cudaDeviceSynchronize) before returning.
//   - Streams you create, you destroy before returning (the driver checks for errors
//     after every call and reports them naming your function).
#include <cstdint>

// The stream handle, declared as CUDA (and parlab's simulator) declare it, so that
// host-only code (the CPU reference) can include this file without the CUDA headers.
typedef struct CUstream_st* cudaStream_t;

namespace lab06 {

inline constexpr float kDecay = 0.9f;

// (a) The kernel: d_out[i] = the damped accumulation of d_in[i], for i in [0, n),
// launched on `stream` (0 is the default stream). Launch and return: no synchronize.
void transform(const float* d_in, float* d_out, std::int64_t n, int iterations,
               cudaStream_t stream);

// (b) One round trip on the default stream: copy host_in to d_in, transform, copy
// d_out back to host_out. The driver calls it twice: with PAGEABLE host buffers
// (std::vector) and with PINNED ones (cudaMallocHost); the code is the same, the
// copies are not (README.md, "Pinned memory").
void round_trip(const float* host_in, float* host_out, float* d_in, float* d_out,
                std::int64_t n, int iterations);

// (c) The same result as round_trip, as a PIPELINE: split [0, n) into chunks of
// `chunk` elements (the last one may be shorter); chunk c goes to stream c % streams
// and is copied in (cudaMemcpyAsync), transformed and copied out (cudaMemcpyAsync) on
// that stream, so the copies of one chunk overlap the kernel of another. host_in and
// host_out are PINNED (asynchronous copies of pageable memory are not asynchronous).
// 1 <= streams <= 32, chunk >= 1.
void pipelined(const float* host_in, float* host_out, float* d_in, float* d_out,
               std::int64_t n, int iterations, int streams, std::int64_t chunk);

}  // namespace lab06
