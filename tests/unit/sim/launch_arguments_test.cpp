// By-value kernel arguments of class type. A GPU gives the kernel a bitwise copy of the
// argument and runs no constructor or destructor on the device; the simulator calls the
// kernel as a C++ function once per CUDA thread, and C++ constructs and destroys a
// by-value parameter at every call. These tests pin what the simulator does (the
// launch's own copy, made once, outlives every thread; each thread's parameter is one
// more copy), so docs/simulation.md ("Not supported") stays true.
#include <catch2/catch.hpp>

#include <atomic>

#include "sim_test_support.hpp"

using sim_test::DeviceArray;

namespace {

std::atomic<int> g_copies{0};
std::atomic<int> g_destroyed{0};
std::atomic<int> g_alive{0};
std::atomic<int> g_fewest_alive_in_kernel{1 << 30};

struct Counted {
  int value;
  explicit Counted(int v) : value(v) { ++g_alive; }
  Counted(const Counted& other) : value(other.value) {
    ++g_copies;
    ++g_alive;
  }
  ~Counted() {
    ++g_destroyed;
    --g_alive;
  }
};

__global__ void read_counted(Counted c, int* out) {
  // The caller's original and the launch's copy are alive besides this thread's own.
  int alive = g_alive.load();
  int fewest = g_fewest_alive_in_kernel.load();
  while (alive < fewest && !g_fewest_alive_in_kernel.compare_exchange_weak(fewest, alive)) {
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = c.value;
}

void reset() {
  g_copies = 0;
  g_destroyed = 0;
  g_fewest_alive_in_kernel = 1 << 30;
}

}  // namespace

TEST_CASE("a by-value argument of class type: every thread sees its value, the launch's "
          "copy outlives the threads, each thread's parameter is copied and destroyed",
          "[sim][launch]") {
  constexpr unsigned blocks = 3, threads = 64;
  DeviceArray<int> out(blocks * threads, -1);
  SECTION("the direct form (a function pointer)") {
    reset();
    {
      const Counted original(42);
      parlab_sim::launch("read_counted", read_counted, dim3(blocks), dim3(threads), 0, nullptr,
                         original, out.get());
      REQUIRE(cudaGetLastError() == cudaSuccess);
    }
    for (int v : out.to_host()) REQUIRE(v == 42);
    CHECK(g_fewest_alive_in_kernel.load() >= 3);
    // One copy for the launch, one per thread (a GPU: one, on the host).
    CHECK(g_copies.load() == 1 + static_cast<int>(blocks * threads));
    CHECK(g_destroyed.load() == g_copies.load() + 1);
  }
  SECTION("the rewriter's form (a call wrapper)") {
    reset();
    {
      const Counted original(7);
      parlab_sim::launch("read_counted", [&](auto&&... p) { read_counted(p...); },
                         parlab_sim::launch_config(dim3(blocks), dim3(threads)), original, out.get());
      REQUIRE(cudaGetLastError() == cudaSuccess);
    }
    for (int v : out.to_host()) REQUIRE(v == 7);
    CHECK(g_fewest_alive_in_kernel.load() >= 3);
    CHECK(g_copies.load() == 1 + static_cast<int>(blocks * threads));
    CHECK(g_destroyed.load() == g_copies.load() + 1);
  }
}
