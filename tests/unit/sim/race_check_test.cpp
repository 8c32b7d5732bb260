// The race check on canonical kernels with known answers (fixtures/race_kernels.cu,
// built with the check build's flags) and its shadow bookkeeping on its own.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "race/block_shadow.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Matches;
using parlab_sim::detail::BlockShadow;

namespace {

sim_test::ProgramOutcome run_checked(const std::string& kernel) {
  setenv("PARLAB_SIM_RACE_CHECK", "1", 1);
  auto outcome = sim_test::run_program("sim_fixture_race_kernels", kernel);
  unsetenv("PARLAB_SIM_RACE_CHECK");
  return outcome;
}

const void* pc(int n) { return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(n)); }

}  // namespace

TEST_CASE("a plain ++ on a shared histogram bin is a race on that line", "[sim][race]") {
  const auto outcome = run_checked("histogram_plain");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("parlab-sim: warning: data race on shared array `bins`"));
  CHECK_THAT(outcome.output, Matches("(.|\n)*at race_kernels.cu:(\\d+), thread \\(\\d+,0,0\\) "
                                     "(reads|writes) it at race_kernels.cu:\\2,(.|\n)*"));
  CHECK_THAT(outcome.output, Contains("the last __syncthreads() passed was at race_kernels.cu:16"));
  CHECK_THAT(outcome.output, Contains("make the update atomic"));
}

TEST_CASE("the race stays found when the store is a memcpy of a length known at run time", "[sim][race]") {
  const auto outcome = run_checked("histogram_memcpy");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("parlab-sim: warning: data race on shared array `bins`"));
  // The copy's own line, where the student wrote it (not the runtime's or libc's).
  CHECK_THAT(outcome.output, Contains("writes it at race_kernels.cu:181"));
}

TEST_CASE("the same histogram with atomicAdd has no race", "[sim][race]") {
  const auto outcome = run_checked("histogram_atomic");
  INFO(outcome.output);
  CHECK(outcome.output == "histogram_atomic: out[0] = 125\n");
}

TEST_CASE("a tree reduction one barrier short is a race between its read and write",
          "[sim][race]") {
  const auto outcome = run_checked("sum_one_barrier_too_few");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on shared array `partial` (byte "));
  CHECK_THAT(outcome.output, Contains("the last __syncthreads() passed was at race_kernels.cu:36"));
  // Its cause is the missing barrier between tree levels, not an update to make atomic:
  // the reading thread writes another element.
  CHECK_THAT(outcome.output, Contains("put a __syncthreads()"));
  CHECK_THAT(outcome.output, Contains("between the steps"));
  CHECK_THAT(outcome.output, !Contains("atomic"));
  const auto fixed = run_checked("sum_with_barriers");
  CHECK(fixed.output == "sum_with_barriers: out[0] = 128\n");
}

TEST_CASE("a warp-synchronous tail without __syncwarp is a race, with it, none",
          "[sim][race]") {
  const auto outcome = run_checked("warp_tail_unsynced");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on shared array `s`"));
  CHECK_THAT(outcome.output, Contains("(or __syncwarp())"));
  const auto fixed = run_checked("warp_tail_synced");
  CHECK(fixed.output == "warp_tail_synced: out[0] = 64\n");
}

TEST_CASE("threads of a block writing one global word race", "[sim][race]") {
  const auto outcome = run_checked("global_same_word");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on device memory (a cudaMalloc block of 512 bytes, byte 0)"));
  CHECK_THAT(outcome.output, Contains("writes it at race_kernels.cu:83"));
  CHECK_THAT(outcome.output, Contains("Several threads write it on one line: make the update atomic"));
}

TEST_CASE("a plain ++ on a __device__ variable races as on global memory, atomicAdd does not",
          "[sim][race]") {
  const auto outcome = run_checked("device_variable_plain");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on a __device__ variable (global memory) in kernel "
                                      "device_variable_plain"));
  CHECK_THAT(outcome.output, Contains("make the update atomic"));
  const auto atomic = run_checked("device_variable_atomic");
  INFO(atomic.output);
  CHECK(atomic.output == "device_variable_atomic: out[0] = 0\n");
}

TEST_CASE("memory a kernel's malloc gave is global memory to the race check", "[sim][race]") {
  const auto outcome = run_checked("kernel_malloc_shared");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on memory a kernel's malloc gave (global memory) "
                                      "in kernel kernel_malloc_shared"));
  CHECK_THAT(outcome.output, Contains("kernel_malloc_shared: out[0] = 0\n"));  // malloc gave memory
}

TEST_CASE("two statements writing one element with nothing between them need ordering, not an atomic",
          "[sim][race]") {
  const auto outcome = run_checked("two_writers_unordered");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on shared array `s`"));
  CHECK_THAT(outcome.output, Contains("Two different writes with nothing ordering them: put a __syncthreads()"));
  CHECK_THAT(outcome.output, !Contains("atomic"));
}

TEST_CASE("a stencil updating global memory in place needs a second buffer, not a barrier",
          "[sim][race]") {
  const auto outcome = run_checked("stencil_in_place");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on device memory"));
  CHECK_THAT(outcome.output, Contains("a stencil updating its grid in place"));
  CHECK_THAT(outcome.output, Contains("write the new ones to a second buffer"));
  CHECK_THAT(outcome.output, !Contains("Put a __syncthreads()"));
  CHECK_THAT(outcome.output, !Contains("atomic"));
}

TEST_CASE("a global value read on one line and written back on the next is an update to make "
          "atomic", "[sim][race]") {
  const auto outcome = run_checked("global_update_two_lines");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("Several threads read it and then write it back"));
  CHECK_THAT(outcome.output, Contains("make the update atomic"));
  CHECK_THAT(outcome.output, !Contains("second buffer"));
}

TEST_CASE("a global value one thread writes and others only read needs the barrier",
          "[sim][race]") {
  const auto outcome = run_checked("global_flag_unsynced");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on device memory"));
  CHECK_THAT(outcome.output, Contains("Put a __syncthreads() (or __syncwarp()) between the write and the read."));
  CHECK_THAT(outcome.output, !Contains("second buffer"));
}

TEST_CASE("tile[ty][tx] then a barrier then tile[tx][ty] is no race", "[sim][race]") {
  const auto outcome = run_checked("transpose_tile");
  CHECK(outcome.output == "transpose_tile: out[0] = 0\n");
}

TEST_CASE("reading a neighbour's dynamic shared slot before the barrier is a race",
          "[sim][race]") {
  const auto outcome = run_checked("dynamic_neighbour_early");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("data race on shared array `stage` (extern __shared__, byte 4)"));
  CHECK_THAT(outcome.output, Contains("reads it at race_kernels.cu:98"));
  CHECK_THAT(outcome.output, Contains("writes it at race_kernels.cu:97"));
}

TEST_CASE("blocks folding a maximum into one global word without an atomic race, with "
          "atomicMax or one partial per block they do not", "[sim][race]") {
  const auto plain = run_checked("block_max_plain");
  INFO(plain.output);
  CHECK_THAT(plain.output, Contains("data race between blocks on device memory (a cudaMalloc block of 512 bytes, byte 0)"));
  // Which two blocks meet depends on the workers' timing: any two of the four.
  CHECK_THAT(plain.output, Matches("(.|\n)*in kernel block_max_plain: block \\(([0-3]),0,0\\) thread \\(0,0,0\\) "
                                   "writes it at race_kernels.cu:118, block \\((?!\\2)[0-3],0,0\\) thread "
                                   "\\(0,0,0\\) writes it at race_kernels.cu:118(.|\n)*"));
  const auto atomic = run_checked("block_max_atomic");
  CHECK(atomic.output == "block_max_atomic: out[0] = 4\n");
  const auto partials = run_checked("block_partials");
  CHECK(partials.output == "block_partials: out[0] = 1\n");
}

TEST_CASE("threads storing neighbouring bytes do not race, a byte race at an odd address "
          "names byte 1", "[sim][race]") {
  const auto bytes = run_checked("byte_stores");
  INFO(bytes.output);
  CHECK(bytes.output == "byte_stores: out[0] = 50462976\n");  // bytes 0, 1, 2, 3
  const auto odd = run_checked("odd_allocation_same_byte");
  INFO(odd.output);
  CHECK_THAT(odd.output, Contains("data race on device memory (a cudaMalloc block of 1001 bytes, byte 1)"));
  CHECK_THAT(odd.output, !Contains("18446744073709551615"));
}

TEST_CASE("without PARLAB_SIM_RACE_CHECK the check build reports nothing", "[sim][race]") {
  const auto outcome = sim_test::run_program("sim_fixture_race_kernels", "histogram_plain");
  CHECK(outcome.output == "histogram_plain: out[0] = 125\n");
}

TEST_CASE("shadow: conflicts need two threads, one epoch, one write, not both atomic",
          "[sim][race]") {
  BlockShadow shadow;
  shadow.reset(2);
  const std::uintptr_t a = 0x1000;
  CHECK(shadow.access(a, 4, true, false, 0, pc(1)).word == 0);
  CHECK(shadow.access(a, 4, false, false, 0, pc(2)).word == 0);  // same thread
  const auto read_write = shadow.access(a, 4, false, false, 40, pc(3));
  CHECK(read_write.word == a);
  CHECK(read_write.earlier.lane == 0);
  CHECK(read_write.earlier_is_write);
  CHECK(read_write.later.lane == 40);
  shadow.on_barrier();
  CHECK(shadow.access(a, 4, true, false, 40, pc(4)).word == 0);  // after a barrier
  CHECK(shadow.access(a + 4, 4, true, true, 1, pc(5)).word == 0);
  CHECK(shadow.access(a + 4, 4, true, true, 2, pc(5)).word == 0);  // both atomic
  CHECK(shadow.access(a + 4, 4, false, false, 3, pc(6)).word == a + 4);  // plain vs atomic
  // Two readers, then a write by one of them still conflicts with the other.
  CHECK(shadow.access(a + 8, 4, false, false, 5, pc(7)).word == 0);
  CHECK(shadow.access(a + 8, 4, false, false, 6, pc(7)).word == 0);
  const auto write_after_reads = shadow.access(a + 8, 4, true, false, 5, pc(8));
  CHECK(write_after_reads.word == a + 8);
  CHECK(write_after_reads.earlier.lane == 6);
}

TEST_CASE("shadow: threads storing different bytes of one word do not race, the conflict "
          "names the byte", "[sim][race]") {
  BlockShadow shadow;
  shadow.reset(2);
  const std::uintptr_t a = 0x3000;
  for (unsigned lane = 0; lane < 4; ++lane) {
    CHECK(shadow.access(a + lane, 1, true, false, lane, pc(1)).word == 0);  // out[i] = (uchar)k
  }
  // A word-wide read by another thread meets all four writes; the first common byte.
  const auto read_all = shadow.access(a, 4, false, false, 9, pc(2));
  CHECK(read_all.word == a);
  CHECK(read_all.address == a);
  // Two 2-byte halves by two threads, then a 1-byte read of the upper half's 2nd byte.
  CHECK(shadow.access(a + 4, 2, true, false, 1, pc(3)).word == 0);
  CHECK(shadow.access(a + 6, 2, true, false, 2, pc(3)).word == 0);
  const auto upper = shadow.access(a + 7, 1, false, false, 3, pc(4));
  CHECK(upper.address == a + 7);
  CHECK(upper.earlier.lane == 2);
  // An access starting inside a word (an allocation at an odd address) stays at or
  // after its own first byte.
  CHECK(shadow.access(a + 9, 1, true, false, 1, pc(5)).word == 0);
  const auto odd = shadow.access(a + 9, 3, true, false, 2, pc(6));
  CHECK(odd.word == a + 8);
  CHECK(odd.address == a + 9);
}

TEST_CASE("shadow: a warp collective orders lanes of its warp only", "[sim][race]") {
  BlockShadow shadow;
  shadow.reset(2);
  const std::uintptr_t a = 0x2000;
  CHECK(shadow.access(a, 4, true, false, 1, pc(1)).word == 0);
  shadow.on_warp_sync(0);
  CHECK(shadow.access(a, 4, false, false, 2, pc(2)).word == 0);    // same warp, synced
  CHECK(shadow.access(a, 4, false, false, 33, pc(3)).word == a);   // another warp: race
  // An access spanning two words reports the conflict of either.
  CHECK(shadow.access(a + 16, 4, true, false, 7, pc(4)).word == 0);
  CHECK(shadow.access(a + 12, 8, true, false, 8, pc(5)).word == a + 16);
}

TEST_CASE("shadow: the last lane of a 1024-thread block and a user-space code address survive "
          "the record's packing", "[sim][race]") {
  BlockShadow shadow;
  shadow.reset(32);
  const std::uintptr_t a = 0x3000;
  // The highest user-space address x86-64 has (47 bits), the highest lane a launch allows.
  const void* high_pc = reinterpret_cast<const void*>(std::uintptr_t{0x7ffffffff123});
  CHECK(shadow.access(a, 4, true, false, 1023, high_pc).word == 0);
  const auto conflict = shadow.access(a, 4, false, false, 991, pc(2));  // another warp
  REQUIRE(conflict.word == a);
  CHECK(conflict.earlier.lane == 1023);
  CHECK(conflict.earlier.pc() == high_pc);
  CHECK(conflict.earlier_is_write);
  CHECK(conflict.later.lane == 991);
  CHECK(conflict.later.pc() == pc(2));
  // Lane 1023 and lane 1023 - 1024 would be one thread if the lane were cut short: lane
  // 1023 reading after its own write is no race.
  CHECK(shadow.access(a + 4, 4, true, false, 1023, pc(3)).word == 0);
  CHECK(shadow.access(a + 4, 4, false, false, 1023, pc(4)).word == 0);
}

TEST_CASE("shadow: a column walk (one word every 1 KiB) finds every earlier write", "[sim][race]") {
  // Strided keys share their place in a 64-byte line: the table must still tell them
  // apart and find them (race/shadow_table.hpp spreads the lines).
  BlockShadow shadow;
  shadow.reset(2);
  constexpr std::uintptr_t kBase = 0x100000, kStride = 1024, kRows = 3000;
  for (std::uintptr_t r = 0; r < kRows; ++r) {
    REQUIRE(shadow.access(kBase + r * kStride, 4, true, false, 5, pc(1)).word == 0);
  }
  std::uintptr_t found = 0;
  for (std::uintptr_t r = 0; r < kRows; ++r) {
    found += shadow.access(kBase + r * kStride, 4, false, false, 6, pc(2)).word == kBase + r * kStride;
  }
  CHECK(found == kRows);
}
