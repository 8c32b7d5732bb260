// Faults a student can act on end the program with a report naming the kernel, block
// and thread, and a documented exit code. Each runs in a forked child.
#undef NDEBUG  // the assert test needs assert() even in a Release build
#include <assert.h>

#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using sim_test::run_in_child;

namespace {

__global__ void write_one_past(float* data, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= n) data[i] = 1.0f;  // off by one: i == n is out of bounds
}

// What `command` prints on stdout.
std::string command_output(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {};
  std::string output;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  pclose(pipe);
  return output;
}

// Out of line, so its faulting store is in code addr2line names by the kernel's symbol
// (this test's build has no line tables).
__attribute__((noinline)) __global__ void store_past_end_out_of_line(float* data, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= n) data[i] = 3.0f;
}

__global__ void read_before(const int* data, int* out) { out[0] = data[-1]; }

__global__ void touch(float* data) { data[threadIdx.x] = 2.0f; }

SIM_TEST_FAULTY_KERNEL __global__ void null_write(int* data) { data[threadIdx.x] = 1; }

__global__ void dynamic_shared_overrun(int* out) {
  int* const buffer = static_cast<int*>(parlab_sim::dynamic_shared_memory());
  buffer[threadIdx.x] = 1;  // launched with room for 16 ints, 32 threads
  __syncthreads();
  out[threadIdx.x] = buffer[threadIdx.x];
}

__device__ int deep(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  return depth == 0 ? frame[0] : deep(depth - 1) + frame[0];
}
__global__ void recurse(int* out) { out[0] = deep(1 << 20); }

__global__ void early_return_then_barrier(int* data, int n) {
  __shared__ int tile[64];
  const int i = static_cast<int>(threadIdx.x);
  if (i >= n) return;
  tile[i] = data[i];
  __syncthreads();
  data[i] = tile[(i + 1) % n];
}

__global__ void barrier_in_branch(int* data) {
  if (threadIdx.x % 2 == 0) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  data[threadIdx.x] = 1;
}

__global__ void shuffle_waits_for_barrier(int* data) {
  if (threadIdx.x < 16) {
    data[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0);
  } else {
    __syncthreads();
  }
}

__global__ void all_wait(int* data) {
  __syncthreads();
  data[threadIdx.x] = 1;
}

__global__ void mismatched_masks(int* data) {
  const unsigned lane = threadIdx.x;
  const unsigned mask = lane == 1 ? 0x6u : 0x3u;  // lane 1 disagrees with lane 0
  if (lane < 3) data[lane] = __shfl_sync(mask, static_cast<int>(lane), 0);
}

__global__ void failing_assert(int* data) {
  assert(threadIdx.x != 5 && "thread 5 is unhappy");
  data[threadIdx.x] = 1;
}

__global__ void trapping(int*) {
  if (blockIdx.x == 2) __trap();
}

__global__ void throwing(int*) {
  if (threadIdx.x == 3) throw std::runtime_error("kernels cannot throw");
}

}  // namespace

// 3840 bytes, a multiple of 256: the allocation ends at its guard page, which catches the
// write without the check build's hooks (other sizes: allocation_alignment_test.cpp).
TEST_CASE("a write one past the end of a cudaMalloc array is reported", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    float* data = nullptr;
    cudaMalloc(&data, 960 * sizeof(float));
    parlab_sim::launch("write_one_past", write_one_past, dim3(4), dim3(256), 0, nullptr, data, 960);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
  CHECK_THAT(outcome.stderr_text, Contains("parlab-sim: invalid memory write in kernel write_one_past"));
  CHECK_THAT(outcome.stderr_text, Contains("block (3,0,0), thread (192,0,0)"));
  CHECK_THAT(outcome.stderr_text, Contains("just past the end of a device allocation (cudaMalloc) of 3840 bytes"));
  CHECK_THAT(outcome.stderr_text, Contains("cudaErrorIllegalAddress"));
}

TEST_CASE("a fault report names the faulting instruction's code offset in the program",
          "[sim][faults]") {
  const auto outcome = run_in_child([] {
    // 3840 bytes, a multiple of 256: the store just past the end hits the guard page
    // (this test's kernels have no access hooks to see the slack of other sizes).
    float* data = nullptr;
    cudaMalloc(&data, 960 * sizeof(float));
    parlab_sim::launch("store_past_end_out_of_line", store_past_end_out_of_line, dim3(4), dim3(256), 0,
                       nullptr, data, 960);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
  std::smatch offset;
  REQUIRE(std::regex_search(outcome.stderr_text, offset,
                            std::regex("\n  at code offset (0x[0-9a-f]+) of the program\n")));
  // The grader resolves it with addr2line on the program (grading/fault_line): here the
  // function it names is the kernel that faulted.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE(n > 0);
  self[n] = '\0';
  const std::string resolved =
      command_output("addr2line -f -e '" + std::string(self) + "' " + offset[1].str());
  INFO(resolved);
  CHECK_THAT(resolved, Contains("store_past_end_out_of_line"));
}

TEST_CASE("a read before the start of an allocation is reported", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    int* data = nullptr;
    int* out = nullptr;
    cudaMalloc(&data, 4096 * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    parlab_sim::launch("read_before", read_before, dim3(1), dim3(1), 0, nullptr, data, out);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
  CHECK_THAT(outcome.stderr_text, Contains("invalid memory read in kernel read_before"));
  CHECK_THAT(outcome.stderr_text, Contains("4 bytes before the start of a device allocation"));
}

TEST_CASE("use after cudaFree, null and host pointers are reported", "[sim][faults]") {
  SECTION("use after free") {
    const auto outcome = run_in_child([] {
      float* data = nullptr;
      cudaMalloc(&data, 64 * sizeof(float));
      float* stale = data;
      cudaFree(data);
      parlab_sim::launch("touch", touch, dim3(1), dim3(32), 0, nullptr, stale);
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.stderr_text, Contains("already released by cudaFree"));
  }
  SECTION("null pointer") {
    const auto outcome = run_in_child([] {
      parlab_sim::launch("null_write", null_write, dim3(1), dim3(4), 0, nullptr, static_cast<int*>(nullptr));
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.stderr_text, Contains("null pointer dereference"));
    CHECK_THAT(outcome.stderr_text, Contains("kernel null_write, block (0,0,0), thread (0,0,0)"));
  }
  SECTION("host pointer passed to a kernel") {
    const auto outcome = run_in_child([] {
      std::vector<float> host(32);
      parlab_sim::launch("touch", touch, dim3(1), dim3(32), 0, nullptr, host.data());
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.stderr_text, Contains("kernel touch was launched with argument 1"));
    CHECK_THAT(outcome.stderr_text, Contains("which is not device memory"));
  }
}

TEST_CASE("overrunning dynamic shared memory is reported", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    int* out = nullptr;
    cudaMalloc(&out, 32 * sizeof(int));
    parlab_sim::launch("dynamic_shared_overrun", dynamic_shared_overrun, dim3(1), dim3(32),
                       16 * sizeof(int), nullptr, out);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
  CHECK_THAT(outcome.stderr_text, Contains("dynamic shared memory (extern __shared__): byte offset 64"));
  CHECK_THAT(outcome.stderr_text, Contains("thread (16,0,0)"));
}

TEST_CASE("a CUDA thread's stack overflow is reported", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    int* out = nullptr;
    cudaMalloc(&out, sizeof(int));
    parlab_sim::launch("recurse", recurse, dim3(1), dim3(1), 0, nullptr, out);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
  CHECK_THAT(outcome.stderr_text, Contains("stack overflow"));
  CHECK_THAT(outcome.stderr_text, Contains("PARLAB_SIM_STACK_KIB"));
}

TEST_CASE("a __syncthreads that exited threads never reach is a deadlock", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    int* data = nullptr;
    cudaMalloc(&data, 64 * sizeof(int));
    parlab_sim::launch("early_return_then_barrier", early_return_then_barrier, dim3(1), dim3(64), 0,
                       nullptr, data, 50);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitDeadlock);
  CHECK_THAT(outcome.stderr_text, Contains("parlab-sim: deadlock in kernel early_return_then_barrier, block (0,0,0)"));
  CHECK_THAT(outcome.stderr_text, Contains("50 of 64 threads wait at __syncthreads() ("));
  CHECK_THAT(outcome.stderr_text, Contains("fault_reports_test.cpp:"));
  CHECK_THAT(outcome.stderr_text, Contains("14 threads exited without reaching it (e.g. thread (50,0,0))"));
}

TEST_CASE("PARLAB_SIM_ALLOW_EXITED_AT_BARRIER=1 lets exited threads go, as Volta+ GPUs do",
          "[sim][faults]") {
  const auto outcome = run_in_child([] {
    sim_test::set_setting("PARLAB_SIM_ALLOW_EXITED_AT_BARRIER", "1");
    std::vector<int> values(64);
    for (int i = 0; i < 64; ++i) values[i] = i;
    sim_test::DeviceArray<int> data(values);
    parlab_sim::launch("early_return_then_barrier", early_return_then_barrier, dim3(1), dim3(64),
                       0, nullptr, data.get(), 50);
    const std::vector<int> out = data.to_host();
    if (out[0] != 1 || out[49] != 0 || out[50] != 50) _exit(3);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == 0);
}

TEST_CASE("threads waiting at different __syncthreads are reported", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    int* data = nullptr;
    cudaMalloc(&data, 64 * sizeof(int));
    parlab_sim::launch("barrier_in_branch", barrier_in_branch, dim3(1), dim3(64), 0, nullptr, data);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitUndefinedBehaviour);
  CHECK_THAT(outcome.stderr_text, Contains("divergent __syncthreads() in kernel barrier_in_branch"));
  CHECK_THAT(outcome.stderr_text, Contains("thread (1,0,0)"));
}

TEST_CASE("a warp shuffle waiting for lanes stuck at a barrier is a deadlock", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    int* data = nullptr;
    cudaMalloc(&data, 32 * sizeof(int));
    parlab_sim::launch("shuffle_waits_for_barrier", shuffle_waits_for_barrier, dim3(1), dim3(32), 0,
                       nullptr, data);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitDeadlock);
  CHECK_THAT(outcome.stderr_text, Contains("wait in __shfl_sync(mask 0xffffffff) for lanes 16,17"));
  CHECK_THAT(outcome.stderr_text, Contains("which wait at __syncthreads()"));
}

TEST_CASE("lanes of a warp that name different masks are reported", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    int* data = nullptr;
    cudaMalloc(&data, 32 * sizeof(int));
    parlab_sim::launch("mismatched_masks", mismatched_masks, dim3(1), dim3(32), 0, nullptr, data);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitUndefinedBehaviour);
  CHECK_THAT(outcome.stderr_text, Contains("mismatched warp collective"));
  CHECK_THAT(outcome.stderr_text, Contains("lane 0 called __shfl_sync(mask 0x00000003) while lane 1 called __shfl_sync(mask 0x00000006)"));
}

TEST_CASE("assert, __trap and exceptions in kernels are reported", "[sim][faults]") {
  SECTION("assert") {
    const auto outcome = run_in_child([] {
      int* data = nullptr;
      cudaMalloc(&data, 32 * sizeof(int));
      parlab_sim::launch("failing_assert", failing_assert, dim3(1), dim3(32), 0, nullptr, data);
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitKernelFault);
    CHECK_THAT(outcome.stderr_text, Contains("thread 5 is unhappy"));
    CHECK_THAT(outcome.stderr_text, Contains("abort() in kernel failing_assert, block (0,0,0), thread (5,0,0)"));
  }
  SECTION("__trap") {
    const auto outcome = run_in_child([] {
      parlab_sim::launch("trapping", trapping, dim3(4), dim3(8), 0, nullptr, static_cast<int*>(nullptr));
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitKernelFault);
    CHECK_THAT(outcome.stderr_text, Contains("__trap() in kernel trapping, block (2,0,0), thread (0,0,0)"));
  }
  SECTION("exception") {
    const auto outcome = run_in_child([] {
      parlab_sim::launch("throwing", throwing, dim3(1), dim3(8), 0, nullptr, static_cast<int*>(nullptr));
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitKernelFault);
    CHECK_THAT(outcome.stderr_text, Contains("uncaught C++ exception in kernel throwing"));
    CHECK_THAT(outcome.stderr_text, Contains("kernels cannot throw"));
  }
}

TEST_CASE("host code reading past a device allocation gets a hint, then crashes as usual",
          "[sim][faults]") {
  const auto outcome = run_in_child([] {
    float* data = nullptr;
    cudaMalloc(&data, 1024 * sizeof(float));
    volatile float past_end = data[1024];
    (void)past_end;
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code != 0);
  CHECK_THAT(outcome.stderr_text, Contains("host code touched the guard page or freed memory"));
  CHECK_THAT(outcome.stderr_text, Contains("just past the end of a device allocation"));
  // Where in the program, for the grader to name the host line (grading/fault_line).
  CHECK(std::regex_search(outcome.stderr_text, std::regex("\\n  at code offset 0x[0-9a-f]+ of the program\\n")));
}

TEST_CASE("running out of address space for thread stacks is reported", "[sim][faults]") {
  const auto outcome = run_in_child([] {
    sim_test::set_setting("PARLAB_SIM_WORKERS", "1");
    int* data = nullptr;
    cudaMalloc(&data, 1024 * sizeof(int));
    parlab_sim::launch("all_wait", all_wait, dim3(1), dim3(1), 0, nullptr, data);  // starts the worker
    long pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    const rlim_t limit = static_cast<rlim_t>(pages) * 4096 + (16u << 20);
    const rlimit address_space{limit, limit};
    setrlimit(RLIMIT_AS, &address_space);
    parlab_sim::launch("all_wait", all_wait, dim3(1), dim3(1024), 0, nullptr, data);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitOutOfMemory);
  CHECK_THAT(outcome.stderr_text, Contains("out of memory for the stacks of the CUDA threads (kernel all_wait"));
}

TEST_CASE("a device function called from host code is reported", "[sim][faults]") {
  const auto outcome = run_in_child([] { __syncthreads(); });
  CHECK(outcome.exit_code == parlab_sim::kExitKernelFault);
  CHECK_THAT(outcome.stderr_text, Contains("__syncthreads called outside a kernel"));
}
