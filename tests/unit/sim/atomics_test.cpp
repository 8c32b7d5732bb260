// Atomics are correct under contention: blocks run on several OS threads at once.
#include <catch2/catch.hpp>

#include "sim_test_support.hpp"

using sim_test::DeviceArray;

namespace {

__global__ void count_everything(int* int_counter, unsigned long long* wide_counter,
                                 float* float_sum, double* double_sum) {
  atomicAdd(int_counter, 1);
  atomicAdd(wide_counter, 3ull);
  atomicAdd(float_sum, 0.5f);
  atomicAdd(double_sum, 0.25);
}

// The classic compare-and-swap loop: a float maximum.
__device__ float atomic_max_float(float* address, float value) {
  int* as_int = reinterpret_cast<int*>(address);
  int old = *as_int;
  int assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(as_int, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void max_by_cas(const float* values, float* maximum) {
  atomic_max_float(maximum, values[blockIdx.x * blockDim.x + threadIdx.x]);
}

__global__ void integer_atomics(int* v) {
  const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  atomicMin(&v[0], t);
  atomicMax(&v[1], t);
  atomicSub(&v[2], 2);
  atomicOr(&v[3], 1 << (t % 31));
  atomicAnd(&v[4], ~(1 << (t % 31)));
  atomicXor(&v[5], 1);
  atomicInc(reinterpret_cast<unsigned int*>(&v[6]), 9u);  // counts 0..9 and wraps
  atomicDec(reinterpret_cast<unsigned int*>(&v[7]), 100u);
  atomicExch(&v[8], 42);
}

// A spin lock taken by every thread of every block: needs a failed atomicCAS to let the
// block's other threads (fibers) run, or the owner would never release it.
__global__ void locked_increment(int* lock, int* counter) {
  for (bool done = false; !done;) {
    if (atomicCAS(lock, 0, 1) == 0) {
      __threadfence();
      *counter += 1;
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    }
  }
}

}  // namespace

TEST_CASE("atomicAdd from many blocks loses no update", "[sim][atomics]") {
  DeviceArray<int> ints(1, 0);
  DeviceArray<unsigned long long> wides(1, 0);
  DeviceArray<float> floats(1, 0.0f);
  DeviceArray<double> doubles(1, 0.0);
  const unsigned blocks = 512;
  const unsigned threads = 256;
  parlab_sim::launch("count_everything", count_everything, dim3(blocks), dim3(threads), 0, nullptr,
                     ints.get(), wides.get(), floats.get(), doubles.get());
  const double n = blocks * threads;
  CHECK(ints.to_host()[0] == static_cast<int>(n));
  CHECK(wides.to_host()[0] == 3ull * blocks * threads);
  CHECK(floats.to_host()[0] == static_cast<float>(0.5 * n));  // exact: small integers/2
  CHECK(doubles.to_host()[0] == 0.25 * n);
}

TEST_CASE("an atomicCAS loop computes a float maximum under contention", "[sim][atomics]") {
  const unsigned blocks = 128;
  const unsigned threads = 128;
  std::vector<float> values(blocks * threads);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>((i * 7919) % 100003);
  DeviceArray<float> d_values(values);
  DeviceArray<float> maximum(1, -1.0f);
  parlab_sim::launch("max_by_cas", max_by_cas, dim3(blocks), dim3(threads), 0, nullptr,
                     d_values.get(), maximum.get());
  CHECK(maximum.to_host()[0] == *std::max_element(values.begin(), values.end()));
}

TEST_CASE("integer atomics follow CUDA's definitions", "[sim][atomics]") {
  DeviceArray<int> v(std::vector<int>{1000, -1, 0, 0, -1, 0, 0, 0, 0});
  const unsigned n = 4 * 64;
  parlab_sim::launch("integer_atomics", integer_atomics, dim3(4), dim3(64), 0, nullptr, v.get());
  const std::vector<int> out = v.to_host();
  CHECK(out[0] == 0);
  CHECK(out[1] == static_cast<int>(n - 1));
  CHECK(out[2] == -2 * static_cast<int>(n));
  CHECK(out[3] == 0x7fffffff);
  CHECK(out[4] == static_cast<int>(0x80000000u));
  CHECK(out[5] == 0);  // an even number of flips
  CHECK(out[6] == static_cast<int>(n % 10));
  CHECK(static_cast<unsigned>(out[7]) == (101u - n % 101u) % 101u);
  CHECK(out[8] == 42);
}

TEST_CASE("a spin lock shared by the threads of a block does not hang", "[sim][atomics]") {
  DeviceArray<int> lock(1, 0);
  DeviceArray<int> counter(1, 0);
  parlab_sim::launch("locked_increment", locked_increment, dim3(8), dim3(64), 0, nullptr,
                     lock.get(), counter.get());
  CHECK(counter.to_host()[0] == 8 * 64);
}
