// Happens-before between blocks through a fence and an atomic (race/atomic_order.hpp)
// on its own, and in kernels: the public patterns of fixtures/race_public_patterns.cu
// run with the race check and get their answers with no finding.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>

#include "race/atomic_order.hpp"
#include "race/grid_shadow.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using parlab_sim::detail::AtomicOrder;
using parlab_sim::detail::BlockOrder;
using parlab_sim::detail::GridShadow;
using parlab_sim::detail::GridWrite;

namespace {

GridWrite write_by(std::uint64_t block, const BlockOrder& order, bool read_first) {
  GridWrite write;
  write.block = block;
  write.epoch = order.epoch();
  write.read_first = read_first;
  write.pc = reinterpret_cast<const void*>(block + 1);
  return write;
}

sim_test::ProgramOutcome run_checked(const std::string& pattern) {
  setenv("PARLAB_SIM_RACE_CHECK", "1", 1);
  auto outcome = sim_test::run_program("sim_fixture_race_public_patterns", pattern);
  unsetenv("PARLAB_SIM_RACE_CHECK");
  return outcome;
}

// "NAME: VALUE expected VALUE" with the two values equal.
void check_answer(const sim_test::ProgramOutcome& outcome, const std::string& name) {
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  const std::size_t at = outcome.output.find(name + ": ");
  REQUIRE(at != std::string::npos);
  const std::string rest = outcome.output.substr(at + name.size() + 2);
  const std::size_t expected = rest.find(" expected ");
  REQUIRE(expected != std::string::npos);
  CHECK(rest.substr(0, expected) == rest.substr(expected + 10, expected));
}

}  // namespace

TEST_CASE("order: a write before a fence and a ticket is ordered before the block that "
          "draws a later ticket, without the fence, or written after it, it is not",
          "[sim][race]") {
  AtomicOrder atomics;
  GridShadow shadow;
  alignas(4) static std::uint32_t memory[4] = {};
  const auto word = reinterpret_cast<std::uintptr_t>(&memory[0]);
  const std::uintptr_t ticket = 0x40;
  BlockOrder first, unfenced, last;
  int counter = 0;
  const auto draw = [&] { return ++counter; };

  // Block 1 writes, fences, takes a ticket: a release at `ticket`.
  CHECK(shadow.write(word, 4, write_by(1, first, false), first).address == 0);
  first.on_fence();
  CHECK(atomics.perform(ticket, 1, first, draw) == 1);
  CHECK(first.epoch() == 1);
  // Block 2 writes another word and takes a ticket with no fence: nothing released.
  CHECK(shadow.write(word + 4, 4, write_by(2, unfenced, false), unfenced).address == 0);
  CHECK(atomics.perform(ticket, 2, unfenced, draw) == 2);
  CHECK(unfenced.epoch() == 0);
  // Block 3 draws the last ticket: block 1's write is ordered before it, block 2's not.
  CHECK(atomics.perform(ticket, 3, last, draw) == 3);
  CHECK(last.ordered_after(1, 0));
  CHECK_FALSE(last.ordered_after(2, 0));
  CHECK(shadow.write(word, 4, write_by(3, last, true), last).address == 0);
  CHECK(shadow.write(word + 4, 4, write_by(3, last, true), last).address == word + 4);
  // A write block 1 makes after its release is not covered by it.
  CHECK(shadow.write(word + 8, 4, write_by(1, first, false), first).address == 0);
  CHECK_FALSE(last.ordered_after(1, first.epoch()));
  CHECK(shadow.write(word + 8, 4, write_by(3, last, true), last).address == word + 8);
  // An atomic on another address acquires nothing; a new launch forgets the releases.
  BlockOrder elsewhere;
  atomics.perform(ticket + 4, 4, elsewhere, draw);
  CHECK_FALSE(elsewhere.ordered_after(1, 0));
  atomics.clear();
  BlockOrder next_launch;
  atomics.perform(ticket, 5, next_launch, draw);
  CHECK_FALSE(next_launch.ordered_after(1, 0));
}

TEST_CASE("grid shadow: every word written is listed once with its value from before the "
          "launch, a read-modify-write of another block's word races, a clear forgets them",
          "[sim][race]") {
  static GridShadow shadow;  // 64 shards of tables: too large for the test's stack
  static std::uint32_t memory[3000];
  for (std::uint32_t i = 0; i < 3000; ++i) memory[i] = 1000 + i;
  const auto base = reinterpret_cast<std::uintptr_t>(&memory[0]);
  BlockOrder order;
  // Block 1 writes every word (a blind store), each word once, across every shard.
  for (std::uint32_t i = 0; i < 3000; ++i) {
    REQUIRE(shadow.write(base + 4 * i, 4, write_by(1, order, false), order).address == 0);
    memory[i] = 7;  // the store itself comes after the hook
  }
  std::size_t listed = 0, right_old = 0;
  shadow.for_each_word([&](std::uintptr_t word, std::uint32_t old_word) {
    ++listed;
    right_old += old_word == 1000 + (word - base) / 4;
  });
  CHECK(listed == 3000);
  CHECK(right_old == 3000);
  // Block 2 updates word 1234 after reading it: a race with block 1's write.
  const auto conflict = shadow.write(base + 4 * 1234, 4, write_by(2, order, true), order);
  CHECK(conflict.address == base + 4 * 1234);
  CHECK(conflict.earlier.block == 1);
  CHECK(conflict.later.block == 2);
  shadow.clear();
  listed = 0;
  shadow.for_each_word([&](std::uintptr_t, std::uint32_t) { ++listed; });
  CHECK(listed == 0);
  CHECK(shadow.write(base + 4 * 1234, 4, write_by(2, order, true), order).address == 0);
}

TEST_CASE("the programming guide's last-block sum (fence, atomicInc ticket) is no race, "
          "without the fence it is a race between blocks", "[sim][race]") {
  const auto fenced = run_checked("last_block_sum");
  check_answer(fenced, "last_block_sum");
  CHECK_THAT(fenced.output, !Contains("data race"));
  const auto unfenced = run_checked("last_block_sum_unfenced");
  INFO(unfenced.output);
  CHECK_THAT(unfenced.output, Contains("data race between blocks"));
  CHECK_THAT(unfenced.output, Contains("race_public_patterns.cu:"));
}

TEST_CASE("every shared declaration spelling nvcc accepts builds and runs", "[sim][rewrite]") {
  const auto outcome = run_checked("spellings");
  check_answer(outcome, "spellings");
  CHECK_THAT(outcome.output, !Contains("data race"));
}

TEST_CASE("multi-warp tiles with block_tile_memory (both spellings) reduce and shuffle",
          "[sim][programs]") {
  for (const std::string pattern : {"tile_memory_sum", "tile_memory_sum_experimental"}) {
    const auto outcome = run_checked(pattern);
    check_answer(outcome, pattern);
    CHECK_THAT(outcome.output, !Contains("data race"));
  }
}

TEST_CASE("a libcu++ cuda::barrier of block scope orders the block like __syncthreads",
          "[sim][programs]") {
  const auto outcome = run_checked("barrier_rotate");
  check_answer(outcome, "barrier_rotate");
  CHECK_THAT(outcome.output, !Contains("data race"));
}
