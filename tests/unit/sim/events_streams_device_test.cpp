// Events time work with the host clock; streams run in issue order; the simulated
// device describes itself.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <thread>

#include "sim_test_support.hpp"

namespace {

__global__ void busy_wait(long long nanoseconds) {
  const long long start = clock64();
  while (clock64() - start < nanoseconds) {
  }
}

__global__ void add_one(int* values) { values[threadIdx.x] += 1; }

}  // namespace

TEST_CASE("cudaEventElapsedTime measures the work between two records", "[sim][events]") {
  cudaEvent_t start, stop;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync) == cudaSuccess);
  REQUIRE(cudaEventRecord(start) == cudaSuccess);
  parlab_sim::launch("busy_wait", busy_wait, dim3(1), dim3(1), 0, nullptr, 30'000'000LL);
  REQUIRE(cudaEventRecord(stop, nullptr) == cudaSuccess);
  REQUIRE(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaSuccess);
  float ms = -1;
  REQUIRE(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 30.0f);
  CHECK(ms < 2000.0f);
  CHECK(cudaEventDestroy(start) == cudaSuccess);
  CHECK(cudaEventDestroy(stop) == cudaSuccess);
}

TEST_CASE("event misuse gets cudaErrorInvalidResourceHandle", "[sim][events]") {
  cudaEvent_t recorded, never, untimed;
  cudaEventCreate(&recorded);
  cudaEventCreate(&never);
  cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming);
  cudaEventRecord(recorded);
  cudaEventRecord(untimed);
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, recorded, never) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventElapsedTime(&ms, recorded, untimed) == cudaErrorInvalidResourceHandle);
  cudaEventDestroy(never);
  CHECK(cudaEventRecord(never) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventDestroy(never) == cudaErrorInvalidResourceHandle);
  cudaEventDestroy(recorded);
  cudaEventDestroy(untimed);
  cudaGetLastError();
}

TEST_CASE("work on a stream runs in issue order", "[sim][streams]") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  int* d = nullptr;
  int* pinned = nullptr;
  REQUIRE(cudaMalloc(&d, 32 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMallocHost(&pinned, 32 * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 32; ++i) pinned[i] = i;
  REQUIRE(cudaMemcpyAsync(d, pinned, 32 * sizeof(int), cudaMemcpyHostToDevice, stream) == cudaSuccess);
  for (int k = 0; k < 3; ++k) {
    parlab_sim::launch("add_one", add_one, dim3(1), dim3(32), 0, stream, d);
  }
  REQUIRE(cudaMemsetAsync(d, 0, sizeof(int), stream) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(pinned, d, 32 * sizeof(int), cudaMemcpyDeviceToHost, stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(cudaStreamQuery(stream) == cudaSuccess);
  CHECK(pinned[0] == 0);
  for (int i = 1; i < 32; ++i) CHECK(pinned[i] == i + 3);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  CHECK(cudaStreamDestroy(stream) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamSynchronize(stream) == cudaErrorInvalidResourceHandle);
  cudaFree(d);
  cudaFreeHost(pinned);
  cudaGetLastError();
}

TEST_CASE("the simulated device is device 0 with documented properties", "[sim][device]") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 1);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice);
  cudaGetLastError();
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  CHECK(device == 0);
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  CHECK(std::strstr(p.name, "parlab simulated GPU") != nullptr);
  CHECK(p.warpSize == 32);
  CHECK(p.warpSize == warpSize);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.maxThreadsDim[2] == 64);
  CHECK(p.maxGridSize[1] == 65535);
  CHECK(p.sharedMemPerBlock == 48 * 1024);
  CHECK(p.major == 8);
  CHECK(p.multiProcessorCount >= 1);
  int value = 0;
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess);
  CHECK(value == p.multiProcessorCount);
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess);
  CHECK(static_cast<std::size_t>(value) == p.sharedMemPerBlockOptin);
  CHECK(cudaGetDeviceProperties(&p, 3) == cudaErrorInvalidDevice);
  cudaGetLastError();
}

TEST_CASE("an async copy into pinned memory lands at the synchronization that orders it, "
          "into pageable memory at once", "[sim][streams]") {
  int* device = nullptr;
  REQUIRE(cudaMalloc(&device, 4 * sizeof(int)) == cudaSuccess);
  const int values[4] = {1, 2, 3, 4};
  REQUIRE(cudaMemcpy(device, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  int* pinned = nullptr;
  REQUIRE(cudaMallocHost(&pinned, 4 * sizeof(int)) == cudaSuccess);
  std::memset(pinned, 0, 4 * sizeof(int));
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);

  SECTION("cudaStreamSynchronize") {
    REQUIRE(cudaMemcpyAsync(pinned, device, 4 * sizeof(int), cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    // The device changes after the copy was issued: the copy keeps the bytes it had.
    parlab_sim::launch("add_one", add_one, dim3(1), dim3(4), 0, stream, device);
    CHECK(pinned[3] == 0);  // read too early: stale, as on a GPU
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(pinned[3] == 4);
  }
  SECTION("cudaEventSynchronize completes what came before the record") {
    cudaEvent_t done;
    REQUIRE(cudaEventCreate(&done) == cudaSuccess);
    REQUIRE(cudaMemcpyAsync(pinned, device, 2 * sizeof(int), cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    REQUIRE(cudaEventRecord(done, stream) == cudaSuccess);
    REQUIRE(cudaMemcpyAsync(pinned + 2, device + 2, 2 * sizeof(int), cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    REQUIRE(cudaEventSynchronize(done) == cudaSuccess);
    CHECK(pinned[1] == 2);
    CHECK(pinned[3] == 0);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(pinned[3] == 4);
    cudaEventDestroy(done);
  }
  SECTION("another stream's synchronization does not complete it; a synchronous copy does") {
    cudaStream_t other;
    REQUIRE(cudaStreamCreate(&other) == cudaSuccess);
    REQUIRE(cudaMemcpyAsync(pinned, device, 4 * sizeof(int), cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(other) == cudaSuccess);
    CHECK(pinned[0] == 0);
    int scratch = 0;
    REQUIRE(cudaMemcpy(&scratch, device, sizeof scratch, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(pinned[0] == 1);
    cudaStreamDestroy(other);
  }
  SECTION("pageable memory: synchronous") {
    int pageable[4] = {};
    REQUIRE(cudaMemcpyAsync(pageable, device, sizeof pageable, cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    CHECK(pageable[3] == 4);
  }
  cudaStreamDestroy(stream);
  cudaFreeHost(pinned);
  cudaFree(device);
}
