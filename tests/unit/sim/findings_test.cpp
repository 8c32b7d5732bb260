// Findings: what the simulator reports without stopping the program (a GPU might
// still compute the right answer), on stderr and as JSON lines in the file named by
// PARLAB_SIM_DIAGNOSTICS, each with the student's source line. And poisoned shared
// memory: a block never sees zeros or the previous block's values.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <vector>

#include "lane/shared_poison.hpp"
#include "exec/shuffled_order.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using sim_test::DeviceArray;
using sim_test::run_in_child;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh diagnostics file for one test.
struct DiagnosticsFile {
  std::string path;
  DiagnosticsFile() {
    char name[] = "/tmp/parlab-sim-findings-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    path = name;
  }
  ~DiagnosticsFile() { std::remove(path.c_str()); }
  std::string text() const { return read_file(path); }
};

__global__ void return_before_barrier(int* data, int n) {
  __shared__ int tile[64];
  const int i = static_cast<int>(threadIdx.x);
  if (i >= n) return;
  tile[i] = data[i];
  __syncthreads();  // LINE_BARRIER
  data[i] = tile[(i + 1) % n];
}
constexpr int kLineBarrier = __LINE__ - 3;  // the __syncthreads() above

__global__ void full_block_barrier(int* data) {
  __shared__ int tile[64];
  const int i = static_cast<int>(threadIdx.x);
  tile[i] = data[i];
  __syncthreads();
  data[i] = tile[(i + 1) % 64];
}

// The classic upstream reduction tail: the mask names only the lanes with data, but
// the shuffle reads lanes outside it.
__global__ void shuffle_outside_mask(int* out, int n) {
  const int lane = static_cast<int>(threadIdx.x);
  if (lane >= n) return;
  int value = lane;
  const unsigned mask = (1u << n) - 1u;
  value += __shfl_down_sync(mask, value, 4);  // LINE_SHUFFLE
  out[lane] = value;
}
constexpr int kLineShuffle = __LINE__ - 3;  // the shuffle above

__global__ void shuffle_inside_mask(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  int value = lane;
  value += __shfl_down_sync(0xffffffffu, value, 4);
  out[lane] = value;
}

// Reads static shared memory that no thread wrote: what was there before.
__global__ void read_unwritten_static_shared(float* out) {
  __shared__ float tile[32];
  PARLAB_SIM_STATIC_SHARED_VARS(PARLAB_SIM_SHARED_VAR(tile));  // as parlab-sim-rewrite adds
  const unsigned t = threadIdx.x;
  out[blockIdx.x * 32 + t] = tile[t];
  tile[t] = 0.0f;  // a next block on this worker must not see this
}

__global__ void read_unwritten_dynamic_shared(int* out) {
  int* buffer = static_cast<int*>(parlab_sim::dynamic_shared_memory());
  const unsigned t = threadIdx.x;
  out[blockIdx.x * 32 + t] = buffer[t];
  buffer[t] = 0;
}

}  // namespace

TEST_CASE("an early return before __syncthreads is a finding with the barrier's line",
          "[sim][findings]") {
  DiagnosticsFile file;
  const auto outcome = run_in_child([&] {
    sim_test::set_setting("PARLAB_SIM_ALLOW_EXITED_AT_BARRIER", "1");
    sim_test::set_setting("PARLAB_SIM_DIAGNOSTICS", file.path.c_str());
    std::vector<int> values(64, 1);
    DeviceArray<int> data(values);
    for (int launch = 0; launch < 3; ++launch) {  // reported once, not per launch or block
      parlab_sim::launch("return_before_barrier", return_before_barrier, dim3(4), dim3(64), 0,
                         nullptr, data.get(), 50);
    }
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == 0);  // Volta semantics: the program goes on
  const std::string line = "findings_test.cpp:" + std::to_string(kLineBarrier);
  CHECK_THAT(outcome.stderr_text, Contains("parlab-sim: warning: early exit before a barrier"));
  CHECK_THAT(outcome.stderr_text, Contains(line));
  CHECK_THAT(outcome.stderr_text, Contains("14 of the 64 threads of block ("));
  CHECK_THAT(outcome.stderr_text, Contains("thread (50,0,0)"));
  const std::string json = file.text();
  INFO(json);
  CHECK_THAT(json, Contains("{\"kind\":\"exited_before_barrier\",\"summary\":\"early exit before "
                            "the __syncthreads() at "));
  CHECK_THAT(json, Contains(line + "\",\"message\":\"early exit"));
  CHECK(std::count(json.begin(), json.end(), '\n') == 1);
}

TEST_CASE("a barrier every thread reaches is no finding", "[sim][findings]") {
  DiagnosticsFile file;
  const auto outcome = run_in_child([&] {
    sim_test::set_setting("PARLAB_SIM_ALLOW_EXITED_AT_BARRIER", "1");
    sim_test::set_setting("PARLAB_SIM_DIAGNOSTICS", file.path.c_str());
    DeviceArray<int> data(64, 1);
    parlab_sim::launch("full_block_barrier", full_block_barrier, dim3(2), dim3(64), 0, nullptr,
                       data.get());
  });
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.stderr_text.empty());
  CHECK(file.text().empty());
}

TEST_CASE("a shuffle reading a lane outside its mask is a finding with its line",
          "[sim][findings]") {
  DiagnosticsFile file;
  const auto outcome = run_in_child([&] {
    sim_test::set_setting("PARLAB_SIM_DIAGNOSTICS", file.path.c_str());
    DeviceArray<int> out(32, 0);
    parlab_sim::launch("shuffle_outside_mask", shuffle_outside_mask, dim3(1), dim3(32), 0,
                       nullptr, out.get(), 10);
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.stderr_text,
             Contains("__shfl_down_sync at " + std::string(__FILE__) + ":" +
                      std::to_string(kLineShuffle) + " reads a lane that is not taking part"));
  CHECK_THAT(outcome.stderr_text, Contains("lane 6 of warp 0"));  // lane 6 reads lane 10
  CHECK_THAT(file.text(), Contains("\"kind\":\"inactive_lane_read\""));
}

TEST_CASE("a shuffle inside its mask is no finding", "[sim][findings]") {
  const auto outcome = run_in_child([&] {
    DeviceArray<int> out(32, 0);
    parlab_sim::launch("shuffle_inside_mask", shuffle_inside_mask, dim3(1), dim3(32), 0,
                       nullptr, out.get());
  });
  CHECK(outcome.exit_code == 0);
  INFO(outcome.stderr_text);
  CHECK(outcome.stderr_text.empty());
}

TEST_CASE("device memory never freed is a finding at exit, with the cudaMalloc line",
          "[sim][findings]") {
  DiagnosticsFile file;
  const auto outcome = run_in_child([&] {
    sim_test::set_setting("PARLAB_SIM_DIAGNOSTICS", file.path.c_str());
    float* kept = nullptr;
    float* freed = nullptr;
    cudaMalloc(&kept, 1000 * sizeof(float)); const int line = __LINE__;
    cudaMalloc(&freed, 10 * sizeof(float));
    cudaFree(freed);
    std::fprintf(stderr, "line %d\n", line);
    std::exit(0);  // the check runs at exit
  });
  INFO(outcome.stderr_text);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.stderr_text, Contains("device memory leak: 1 cudaMalloc allocation (4000 bytes)"));
  const std::string line = outcome.stderr_text.substr(outcome.stderr_text.find("line ") + 5, 3);
  CHECK_THAT(outcome.stderr_text, Contains("findings_test.cpp:" + line + " (1x)"));
  CHECK_THAT(file.text(), Contains("\"kind\":\"device_memory_leak\""));
}

TEST_CASE("memory freed before exit, or released by cudaDeviceReset, is no leak",
          "[sim][findings]") {
  const auto outcome = run_in_child([&] {
    float* a = nullptr;
    float* b = nullptr;
    cudaMalloc(&a, 100);
    cudaFree(a);
    cudaMalloc(&b, 100);
    cudaDeviceReset();
    std::exit(0);
  });
  CHECK(outcome.exit_code == 0);
  INFO(outcome.stderr_text);
  CHECK(outcome.stderr_text.empty());
}

TEST_CASE("static shared memory is poisoned at the start of every block", "[sim][shared]") {
  DeviceArray<float> out(4 * 32, 1.0f);
  parlab_sim::launch("read_unwritten_static_shared", read_unwritten_static_shared, dim3(4),
                     dim3(32), 0, nullptr, out.get());
  // A NaN, and not the outputs' all-ones poison: the grader tells the two apart.
  for (float value : out.to_host()) {
    CHECK(std::isnan(value));
    CHECK(std::bit_cast<std::uint32_t>(value) == parlab_sim::detail::kSharedPoisonWord);
  }
}

TEST_CASE("dynamic shared memory is poisoned at the start of every block", "[sim][shared]") {
  DeviceArray<int> out(4 * 32, 7);
  parlab_sim::launch("read_unwritten_dynamic_shared", read_unwritten_dynamic_shared, dim3(4),
                     dim3(32), 32 * sizeof(int), nullptr, out.get());
  for (int value : out.to_host()) CHECK(static_cast<std::uint32_t>(value) == parlab_sim::detail::kSharedPoisonWord);
}

namespace {
// Without a barrier, whoever runs first claims the slot: an order-dependent answer.
__global__ void first_claims(int* slot) {
  if (*slot == 0) *slot = static_cast<int>(threadIdx.x) + 1;
}
// The same across blocks: the first block to run claims the slot.
__global__ void first_block_claims(int* slot) {
  if (threadIdx.x == 0 && *slot == 0) *slot = static_cast<int>(blockIdx.x) + 1;
}
}  // namespace

namespace {

// Which block (or thread) claimed the slot with PARLAB_SIM_SEED = `seed` (nullptr: none).
int first_to_claim(const char* seed, bool blocks) {
  const auto outcome = run_in_child([&] {
    sim_test::set_setting("PARLAB_SIM_WORKERS", "1");  // one worker: blocks run strictly in turn
    if (seed != nullptr) sim_test::set_setting("PARLAB_SIM_SEED", seed);
    DeviceArray<int> slot(1, 0);
    if (blocks) {
      parlab_sim::launch("first_block_claims", first_block_claims, dim3(20), dim3(32), 0, nullptr,
                         slot.get());
    } else {
      parlab_sim::launch("first_claims", first_claims, dim3(1), dim3(64), 0, nullptr, slot.get());
    }
    _exit(slot.to_host()[0]);
  });
  return outcome.exit_code;
}

}  // namespace

TEST_CASE("PARLAB_SIM_SEED starts the blocks, and a block's threads, in a seeded order",
          "[sim][schedule]") {
  for (const bool blocks : {true, false}) {
    INFO((blocks ? "blocks" : "threads"));
    CHECK(first_to_claim(nullptr, blocks) == 1);  // without a seed: the usual order
    std::set<int> firsts;
    for (const char* seed : {"1", "2", "3", "4", "5", "6", "7", "8"}) {
      const int first = first_to_claim(seed, blocks);
      CHECK(first >= 1);
      CHECK(first <= (blocks ? 20 : 64));
      CHECK(first_to_claim(seed, blocks) == first);  // the same seed, the same order
      firsts.insert(first);
    }
    CHECK(firsts.size() >= 4);  // 8 seeds: the first one started is rarely the same
  }
}

TEST_CASE("a shuffled order is a permutation, the identity without a seed", "[sim][schedule]") {
  for (std::uint64_t count : {1ull, 2ull, 3ull, 31ull, 32ull, 33ull, 1000ull, 4097ull}) {
    for (std::uint64_t seed : {0ull, 1ull, 0xdeadbeefull}) {
      const parlab_sim::detail::ShuffledOrder order(seed, count);
      std::vector<bool> seen(count, false);
      for (std::uint64_t position = 0; position < count; ++position) {
        const std::uint64_t element = order.at(position);
        REQUIRE(element < count);
        CHECK_FALSE(seen[element]);
        seen[element] = true;
      }
    }
    const parlab_sim::detail::ShuffledOrder identity;
    for (std::uint64_t position = 0; position < count; ++position) CHECK(identity.at(position) == position);
  }
  // Not the identity, nor a rotation, for a real seed.
  const parlab_sim::detail::ShuffledOrder order(42, 1000);
  int in_place = 0;
  for (std::uint64_t position = 0; position < 1000; ++position) in_place += order.at(position) == position;
  CHECK(in_place < 20);
  const std::uint64_t huge = 3'000'000'000ull * 65535;  // a grid's worth: no table
  const parlab_sim::detail::ShuffledOrder big(7, huge);
  CHECK(big.at(huge - 1) < huge);
}

TEST_CASE("the shared-memory poison reads as its NaN word at any start", "[sim][shared]") {
  alignas(8) unsigned char bytes[40];
  for (std::size_t start = 0; start < 4; ++start) {
    std::fill(std::begin(bytes), std::end(bytes), 0);
    parlab_sim::detail::fill_shared_poison(bytes + start, 33);
    CHECK(bytes[start + 33] == 0);  // not past the end
    for (std::size_t word = (start + 3) / 4 * 4; word + 4 <= start + 33; word += 4) {
      std::uint32_t value;
      std::memcpy(&value, bytes + word, 4);
      CHECK(value == parlab_sim::detail::kSharedPoisonWord);
    }
  }
  double d;
  unsigned char eight[8];
  parlab_sim::detail::fill_shared_poison(eight, 8);
  std::memcpy(&d, eight, 8);
  CHECK(std::isnan(d));
}
