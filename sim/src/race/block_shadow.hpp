#pragma once
// The race check's memory of one running block (docs/simulation.md, "Race check"):
// for every 4-byte word of shared memory and device memory the block touched since
// its last __syncthreads(), its last writes and up to four reads, each with the thread,
// the bytes of the word it touched, the code address and the barrier / warp-sync epoch
// it happened in. Two accesses conflict when they touch a common byte (threads storing
// different bytes of one word, `out[i] = (unsigned char)k`, do not race on a GPU) and
// come from different threads in the same epoch (for two
// lanes of one warp: no warp collective between them either), at least one writes,
// and not both are atomic. Pure bookkeeping: the caller classifies addresses and
// reports the conflicts it is handed.
#include <cstdint>
#include <vector>

#include "race/shadow_table.hpp"

namespace parlab_sim::detail {

// 16 bytes, not 24: a block touching tens of thousands of words keeps eight of these for
// each (136 bytes a word instead of 200). Alone it measured no faster; the table's probe
// order and the records left unset were what the caches felt (docs/performance.md, "The
// race check's tables"). A user-space code address fits in 48 bits on x86-64 and
// AArch64; a lane in 10 (device/launch_limits: at most 1024 threads).
struct ShadowAccess {
  ShadowAccess() = default;
  ShadowAccess(const void* pc, std::uint32_t epoch_now, std::uint32_t warp_epoch_now,
               unsigned lane_index, bool is_atomic)
      : epoch(epoch_now), warp_epoch(warp_epoch_now),
        pc_bits(reinterpret_cast<std::uintptr_t>(pc)), lane(lane_index), bytes(0),
        atomic(is_atomic) {}
  // The instruction after the access's hook call.
  const void* pc() const { return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(pc_bits)); }

  // No default values: a word's kept records are written before they are read, and
  // zeroing eight of them for every new word of every block cost a fifth of a checked
  // run (`ShadowAccess a{}` is still all zero).
  std::uint32_t epoch;  // block barriers completed before it (+1; 0: none)
  std::uint32_t warp_epoch;
  std::uint64_t pc_bits : 48;
  std::uint64_t lane : 10;   // linear thread index in the block
  std::uint64_t bytes : 4;   // which bytes of the word: bit i is byte i
  std::uint64_t atomic : 1;
};
static_assert(sizeof(ShadowAccess) == 16);

struct RaceConflict {
  std::uintptr_t word = 0;
  std::uintptr_t address = 0;  // the first byte both accesses touched
  ShadowAccess earlier{};
  bool earlier_is_write = false;
  ShadowAccess later{};
  bool later_is_write = false;
};

class BlockShadow {
 public:
  void reset(unsigned warps);
  void on_barrier() { ++epoch_; }
  std::uint32_t epoch() const { return epoch_; }
  void on_warp_sync(unsigned warp) { ++warp_epochs_[warp]; }

  // Records an access by `lane` to the words of [address, address + bytes); returns
  // the first conflict found (word == 0: none).
  RaceConflict access(std::uintptr_t address, std::size_t bytes, bool write, bool atomic,
                      unsigned lane, const void* pc);
  // Whether a thread of the block read any byte of [address, address + bytes) since
  // the block last wrote it (the write about to happen is a read-modify-write).
  bool read_before_write(std::uintptr_t address, std::size_t bytes) const;

 private:
  static constexpr unsigned kKept = 4;  // writes, reads: one per byte of the word
  // Only the counts are set when a word is first touched (its records are garbage
  // until kept), and they sit beside the reads, which most accesses look at.
  struct Word {
    Word() : write_count(0), read_count(0) {}
    unsigned write_count;
    unsigned read_count;
    ShadowAccess reads[kKept];
    ShadowAccess writes[kKept];
  };
  bool ordered(const ShadowAccess& a, const ShadowAccess& b) const;
  RaceConflict access_word(std::uintptr_t word, bool write, const ShadowAccess& now);
  // Keeps `now` among `kept` (count in `count`): drops what it covers from the same
  // thread or an older epoch, and the oldest when full.
  void keep(ShadowAccess* kept, unsigned& count, const ShadowAccess& now, bool by_others_too);

  std::uint32_t epoch_ = 1;
  std::vector<std::uint32_t> warp_epochs_;
  ShadowTable<Word> words_;
};

}  // namespace parlab_sim::detail
