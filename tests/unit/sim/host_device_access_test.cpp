// Host code cannot touch device memory (memory/device_pages, fault/host_device_access):
// a host read or write through a cudaMalloc pointer ends the program with a report and
// the faulting instruction's code offset, as a GPU system segfaults; kernels, copies,
// memsets, cuBLAS-like runtime work, managed memory and mapped pinned memory still work.
// Each case runs in a forked child.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "parlab_sim/exit_codes.hpp"
#include "memory/device_pages.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using sim_test::run_in_child;

namespace {

// Out of line, so the faulting access is in code addr2line names by its symbol (this
// test's build may have no line tables).
__attribute__((noinline)) float host_reads_device(const float* device) {
  return *static_cast<const volatile float*>(device + 1);
}
__attribute__((noinline)) void host_writes_device(float* device) {
  *static_cast<volatile float*>(device) = 1.0f;
}
// libc's memcpy does the read: its instruction is outside the program.
__attribute__((noinline)) void host_memcpy_from_device(float* host, const float* device, std::size_t n) {
  volatile std::size_t bytes = n * sizeof(float);  // a real call to memcpy, not inlined moves
  std::memcpy(host, device, bytes);
  asm volatile("" ::: "memory");  // work after the call: a call, not a tail jump to memcpy
}

__global__ void add_one(float* data, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] += 1.0f;
}

__device__ float g_symbol[4];

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

// The function addr2line names for the report's code offset.
std::string function_at_reported_offset(const std::string& stderr_text) {
  std::smatch offset;
  if (!std::regex_search(stderr_text, offset,
                         std::regex("\n  at code offset (0x[0-9a-f]+) of the program\n"))) {
    return {};
  }
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return {};
  self[n] = '\0';
  return command_output("addr2line -f -e '" + std::string(self) + "' " + offset[1].str());
}

}  // namespace

TEST_CASE("a host read through a cudaMalloc pointer faults with the read's code offset",
          "[sim][faults][host_access]") {
  const auto outcome = run_in_child([] {
    float* device = nullptr;
    cudaMalloc(&device, 1000 * sizeof(float));
    const float value = host_reads_device(device);
    std::fprintf(stderr, "read %f\n", value);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitHostDeviceAccess);
  CHECK_THAT(outcome.stderr_text, Contains("parlab-sim: host code read device memory"));
  CHECK_THAT(outcome.stderr_text, Contains("byte 4 of a device allocation (cudaMalloc) of 4000 bytes"));
  CHECK_THAT(outcome.stderr_text, Contains("only valid inside kernels and cudaMemcpy"));
  CHECK_THAT(outcome.stderr_text, !Contains("read 0"));
  CHECK_THAT(function_at_reported_offset(outcome.stderr_text), Contains("host_reads_device"));
}

TEST_CASE("a host write through a cudaMalloc pointer faults with the write's code offset",
          "[sim][faults][host_access]") {
  const auto outcome = run_in_child([] {
    float* device = nullptr;
    cudaMalloc(&device, 1000 * sizeof(float));
    host_writes_device(device);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitHostDeviceAccess);
  CHECK_THAT(outcome.stderr_text, Contains("parlab-sim: host code wrote device memory"));
  CHECK_THAT(outcome.stderr_text, Contains("byte 0 of a device allocation (cudaMalloc) of 4000 bytes"));
  CHECK_THAT(function_at_reported_offset(outcome.stderr_text), Contains("host_writes_device"));
}

TEST_CASE("a host read inside memcpy names the program's call of memcpy",
          "[sim][faults][host_access]") {
  const auto outcome = run_in_child([] {
    float* device = nullptr;
    cudaMalloc(&device, 1000 * sizeof(float));
    std::vector<float> host(1000);
    host_memcpy_from_device(host.data(), device, host.size());
    std::fprintf(stderr, "copied %f\n", host[0]);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == parlab_sim::kExitHostDeviceAccess);
  CHECK_THAT(outcome.stderr_text, Contains("parlab-sim: host code read device memory"));
  CHECK_THAT(outcome.stderr_text, Contains("inside a library function the program called"));
  CHECK_THAT(outcome.stderr_text, !Contains("copied"));
  CHECK_THAT(function_at_reported_offset(outcome.stderr_text), Contains("host_memcpy_from_device"));
}

TEST_CASE("pitched and stream-ordered allocations are device memory too, closed after a kernel",
          "[sim][faults][host_access]") {
  SECTION("cudaMallocPitch") {
    const auto outcome = run_in_child([] {
      float* device = nullptr;
      std::size_t pitch = 0;
      cudaMallocPitch(&device, &pitch, 10 * sizeof(float), 4);
      host_reads_device(device);
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitHostDeviceAccess);
  }
  SECTION("cudaMallocAsync, read after a kernel and a copy back") {
    const auto outcome = run_in_child([] {
      float* device = nullptr;
      cudaMallocAsync(&device, 64 * sizeof(float), nullptr);
      cudaMemset(device, 0, 64 * sizeof(float));
      parlab_sim::launch("add_one", add_one, dim3(1), dim3(64), 0, nullptr, device, 64);
      std::vector<float> host(64);
      cudaMemcpy(host.data(), device, 64 * sizeof(float), cudaMemcpyDeviceToHost);
      host_reads_device(device);
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code == parlab_sim::kExitHostDeviceAccess);
    CHECK_THAT(outcome.stderr_text, Contains("host code read device memory"));
  }
}

TEST_CASE("an allocation made or freed while device memory is open gets the right pages",
          "[sim][faults][host_access]") {
  SECTION("made open, closed with the others") {
    const auto outcome = run_in_child([] {
      float* device = nullptr;
      {
        const parlab_sim::detail::DeviceMemoryOpen open;  // as a kernel on another thread
        cudaMalloc(&device, 16 * sizeof(float));
        host_writes_device(device);  // open: no fault
        std::fprintf(stderr, "wrote while open\n");
      }
      host_reads_device(device);
    });
    INFO(outcome.stderr_text);
    CHECK_THAT(outcome.stderr_text, Contains("wrote while open\n"));
    CHECK(outcome.exit_code == parlab_sim::kExitHostDeviceAccess);
  }
  SECTION("freed while open: freed memory, not reopened") {
    const auto outcome = run_in_child([] {
      float* device = nullptr;
      cudaMalloc(&device, 16 * sizeof(float));
      {
        const parlab_sim::detail::DeviceMemoryOpen open;
        cudaFree(device);
      }
      host_reads_device(device);
    });
    INFO(outcome.stderr_text);
    CHECK(outcome.exit_code != parlab_sim::kExitHostDeviceAccess);
    CHECK(outcome.exit_code != 0);
    CHECK_THAT(outcome.stderr_text, Contains("use after free"));
  }
}

TEST_CASE("kernels, copies, memsets, managed and mapped pinned memory still work",
          "[sim][host_access]") {
  const auto outcome = run_in_child([] {
    constexpr int n = 300;
    std::vector<float> host(n, 2.0f), back(n, 0.0f);
    float* device = nullptr;
    float* other = nullptr;
    cudaMalloc(&device, n * sizeof(float));
    cudaMalloc(&other, n * sizeof(float));
    // cudaMemcpy both ways, device to device, a kernel in between.
    cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    parlab_sim::launch("add_one", add_one, dim3(2), dim3(256), 0, nullptr, device, n);
    cudaMemcpy(other, device, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemcpy(back.data(), other, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::fprintf(stderr, "copies %g %g\n", back[0], back[n - 1]);
    // cudaMemset, then cudaMemcpyAsync and a synchronization, into pageable and pinned memory.
    cudaMemset(device, 0, n * sizeof(float));
    float* pinned = nullptr;
    cudaMallocHost(&pinned, n * sizeof(float));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaMemcpyAsync(back.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaMemcpyAsync(pinned, other, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    std::fprintf(stderr, "async %g %g\n", back[5], pinned[5]);
    // From pinned memory to the device: it lands at the synchronization.
    for (int i = 0; i < n; ++i) pinned[i] = 7.0f;
    cudaMemcpyAsync(device, pinned, n * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
    cudaMemcpy(back.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::fprintf(stderr, "to device %g\n", back[n - 1]);
    // 2-D copies and memsets, and a __device__ symbol filled from device memory.
    cudaMemset2D(device, 10 * sizeof(float), 0, 10 * sizeof(float), 30);
    cudaMemcpy2D(back.data(), 10 * sizeof(float), device, 10 * sizeof(float), 10 * sizeof(float),
                 30, cudaMemcpyDeviceToHost);
    cudaMemcpyToSymbol(g_symbol, other, sizeof g_symbol, 0, cudaMemcpyDeviceToDevice);
    std::fprintf(stderr, "2d %g symbol %g\n", back[299], g_symbol[3]);
    // Managed memory is the host's too.
    float* managed = nullptr;
    cudaMallocManaged(&managed, n * sizeof(float));
    for (int i = 0; i < n; ++i) managed[i] = 1.0f;
    parlab_sim::launch("add_one", add_one, dim3(2), dim3(256), 0, nullptr, managed, n);
    cudaDeviceSynchronize();
    std::fprintf(stderr, "managed %g\n", managed[n - 1]);
    // Mapped pinned memory: the kernel writes through the device alias, the host reads
    // through the host pointer.
    float* mapped = nullptr;
    float* alias = nullptr;
    cudaHostAlloc(&mapped, n * sizeof(float), cudaHostAllocMapped);
    cudaHostGetDevicePointer(reinterpret_cast<void**>(&alias), mapped, 0);
    for (int i = 0; i < n; ++i) mapped[i] = 4.0f;
    parlab_sim::launch("add_one", add_one, dim3(2), dim3(256), 0, nullptr, alias, n);
    cudaDeviceSynchronize();
    std::fprintf(stderr, "mapped %g\n", mapped[n - 1]);
    cudaStreamDestroy(stream);
    cudaFreeHost(mapped);
    cudaFree(managed);
    cudaFreeHost(pinned);
    cudaFree(other);
    cudaFree(device);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.stderr_text, Contains("copies 3 3\n"));
  CHECK_THAT(outcome.stderr_text, Contains("async 0 3\n"));
  CHECK_THAT(outcome.stderr_text, Contains("to device 7\n"));
  CHECK_THAT(outcome.stderr_text, Contains("2d 0 symbol 3\n"));
  CHECK_THAT(outcome.stderr_text, Contains("managed 2\n"));
  CHECK_THAT(outcome.stderr_text, Contains("mapped 5\n"));
  CHECK_THAT(outcome.stderr_text, !Contains("parlab-sim"));
}
