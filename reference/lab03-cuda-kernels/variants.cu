// Lab 03 reference-only extra tasks: faster versions of the lab's kernels, near what
// the device can do. They run through the driver's own task bodies (driver_tasks.hpp),
// so inputs, poisoning, timing and outputs are exactly those of the graded tasks:
//   vector_add_vec4, saxpy_vec4, matrix_scale_vec4   float4 loads/stores, grid-stride
//   heat_step_tiled    the block's tile + halo staged in shared memory
//   heat_solve_fast    tiled steps; a checked step reduces the change in each warp
//                      (shuffles) and with one atomicMax per warp into one word, so a
//                      check copies 4 bytes back instead of a grid
#include <cstdint>
#include <cstring>

#include "api.hpp"
#include "driver_tasks.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace lab03::fast {
namespace {

constexpr int kBlock = 256;
constexpr int kTileX = 32, kTileY = 8;

// Enough blocks to fill the device a few times over; grid-stride loops do the rest.
int stride_blocks(long long work_items) {
  static const int cap = [] {
    int device = 0, sms = 1;
    PARLAB_CUDA_CHECK(cudaGetDevice(&device));
    PARLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms * 8;  // 8 blocks of 256 threads per SM: full occupancy on sm_75..sm_90
  }();
  const long long needed = (work_items + kBlock - 1) / kBlock;
  return static_cast<int>(needed < cap ? (needed > 0 ? needed : 1) : cap);
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Elementwise op over n floats: float4 for the aligned bulk, scalars for the tail.
// The caller guarantees all pointers are 16-byte aligned when vec is true.
template <class Op>
__global__ void map_kernel(Op op, const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ out, int n, bool vec) {
  const int stride = blockDim.x * gridDim.x;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  int done = 0;
  if (vec) {
    const int quads = n / 4;
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* o4 = reinterpret_cast<float4*>(out);
    for (int q = first; q < quads; q += stride) {
      const float4 x = a4[q];
      const float4 y = b != nullptr ? b4[q] : make_float4(0, 0, 0, 0);
      o4[q] = make_float4(op(x.x, y.x), op(x.y, y.y), op(x.z, y.z), op(x.w, y.w));
    }
    done = quads * 4;
  }
  for (int i = done + first; i < n; i += stride) out[i] = op(a[i], b != nullptr ? b[i] : 0.0f);
}

struct Add {
  __device__ float operator()(float x, float y) const { return x + y; }
};
struct Axpy {
  float alpha;
  __device__ float operator()(float x, float y) const { return alpha * x + y; }
};
struct Scale {
  float alpha;
  __device__ float operator()(float x, float) const { return alpha * x; }
};

template <class Op>
void launch_map(Op op, const float* a, const float* b, float* out, int n) {
  const bool vec = aligned16(a) && (b == nullptr || aligned16(b)) && aligned16(out);
  map_kernel<<<stride_blocks(vec ? (n + 3) / 4 : n), kBlock>>>(op, a, b, out, n, vec);
}

void vector_add_vec4(const float* a, const float* b, float* c, int n) {
  launch_map(Add{}, a, b, c, n);
}
void saxpy_vec4(float alpha, const float* x, const float* y, float* out, int n) {
  launch_map(Axpy{alpha}, x, y, out, n);
}
// The matrix is contiguous: scaling it is a 1D map over rows * cols elements.
void matrix_scale_vec4(float alpha, const float* in, float* out, int rows, int cols) {
  launch_map(Scale{alpha}, in, nullptr, out, rows * cols);
}

// One Jacobi step on a kTileX x kTileY tile whose points (and their halo) are loaded
// into shared memory once: each input value is read from global memory by about one
// thread instead of five. With kMeasure, the block's largest change goes into *max_bits
// (non-negative floats order like their bit patterns, so atomicMax on the bits works).
template <bool kMeasure>
__global__ void heat_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int nx,
                                  int ny, float r, unsigned int* __restrict__ max_bits) {
  __shared__ float tile[kTileY + 2][kTileX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * kTileX - 1, y0 = blockIdx.y * kTileY - 1;  // halo origin
  // The (kTileY + 2) x (kTileX + 2) halo tile, loaded by the block's threads in turn.
  for (int i = ty * kTileX + tx; i < (kTileY + 2) * (kTileX + 2); i += kTileX * kTileY) {
    const int hy = i / (kTileX + 2), hx = i % (kTileX + 2);
    const int gx = x0 + hx, gy = y0 + hy;
    tile[hy][hx] = (gx >= 0 && gy >= 0 && gx < nx && gy < ny) ? in[gy * nx + gx] : 0.0f;
  }
  __syncthreads();
  const int x = x0 + 1 + tx, y = y0 + 1 + ty;
  float change = 0.0f;
  if (x < nx && y < ny) {
    float v = tile[ty + 1][tx + 1];
    if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
      const float next =
          v + r * (tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] -
                   4.0f * v);
      change = fabsf(next - v);
      v = next;
    }
    out[y * nx + x] = v;
  }
  if constexpr (kMeasure) {
    // Warp maximum with one instruction per step, then one atomic per warp.
    unsigned int bits = __float_as_uint(change);
    for (int offset = 16; offset > 0; offset /= 2) {
      bits = max(bits, __shfl_xor_sync(0xffffffffu, bits, offset));
    }
    if ((tx & 31) == 0 && bits != 0) atomicMax(max_bits, bits);
  }
}

void heat_step_tiled(const float* in, float* out, int nx, int ny, float r) {
  const dim3 grid((nx + kTileX - 1) / kTileX, (ny + kTileY - 1) / kTileY);
  heat_tiled_kernel<false><<<grid, dim3(kTileX, kTileY)>>>(in, out, nx, ny, r, nullptr);
}

std::int64_t heat_solve_fast(const float* initial, float* out, float* work, float* change,
                             int nx, int ny, float r, float tol, std::int64_t max_iters,
                             int check_every) {
  const dim3 grid((nx + kTileX - 1) / kTileX, (ny + kTileY - 1) / kTileY);
  const dim3 block(kTileX, kTileY);
  unsigned int* max_bits = reinterpret_cast<unsigned int*>(change);
  const float* src = initial;
  float* dst = out;
  std::int64_t steps = 0;
  while (steps < max_iters) {
    ++steps;
    const bool check = steps % check_every == 0;
    if (check) {
      PARLAB_CUDA_CHECK(cudaMemsetAsync(max_bits, 0, sizeof(unsigned int)));
      heat_tiled_kernel<true><<<grid, block>>>(src, dst, nx, ny, r, max_bits);
    } else {
      heat_tiled_kernel<false><<<grid, block>>>(src, dst, nx, ny, r, nullptr);
    }
    PARLAB_CUDA_CHECK(cudaGetLastError());
    src = dst;
    dst = dst == out ? work : out;
    if (check) {
      unsigned int bits = 0;
      PARLAB_CUDA_CHECK(cudaMemcpy(&bits, max_bits, sizeof bits, cudaMemcpyDeviceToHost));
      float largest = 0;
      static_assert(sizeof largest == sizeof bits);
      std::memcpy(&largest, &bits, sizeof bits);
      if (largest < tol) break;
    }
  }
  if (src != out) {
    PARLAB_CUDA_CHECK(cudaMemcpy(out, src, sizeof(float) * static_cast<std::size_t>(nx) * ny,
                                 cudaMemcpyDeviceToDevice));
  }
  return steps;
}

}  // namespace

using parlab::harness::TaskContext;
using parlab::harness::register_extra_task;

// Static initializer: the tasks exist before main() runs the driver.
[[maybe_unused]] const bool registered = [] {
  register_extra_task({"vector_add_vec4", "vector_add with float4 grid-stride loops",
                       [](TaskContext& c) { tasks::run_vector_add(c, vector_add_vec4, "vector_add_vec4"); }});
  register_extra_task({"saxpy_vec4", "saxpy with float4 grid-stride loops",
                       [](TaskContext& c) { tasks::run_saxpy(c, saxpy_vec4, "saxpy_vec4"); }});
  register_extra_task({"matrix_scale_vec4", "matrix_scale as a flat float4 map",
                       [](TaskContext& c) {
                         tasks::run_matrix_scale(c, matrix_scale_vec4, "matrix_scale_vec4");
                       }});
  register_extra_task({"heat_step_tiled", "heat_step with a shared-memory tile",
                       [](TaskContext& c) { tasks::run_heat_step(c, heat_step_tiled, "heat_step_tiled"); }});
  register_extra_task({"heat_solve_fast", "tiled steps, in-block max + one atomicMax per warp",
                       [](TaskContext& c) { tasks::run_heat_solve(c, heat_solve_fast, "heat_solve_fast"); }});
  return true;
}();

}  // namespace lab03::fast
