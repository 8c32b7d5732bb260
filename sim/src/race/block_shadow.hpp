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

struct ShadowAccess {
  const void* pc = nullptr;    // the instruction after the access's hook call
  std::uint32_t epoch = 0;     // block barriers completed before it (+1; 0: none)
  std::uint32_t warp_epoch = 0;
  std::uint16_t lane = 0;      // linear thread index in the block
  std::uint8_t bytes = 0;      // which bytes of the word: bit i is byte i
  bool atomic = false;
};

struct RaceConflict {
  std::uintptr_t word = 0;
  std::uintptr_t address = 0;  // the first byte both accesses touched
  ShadowAccess earlier;
  bool earlier_is_write = false;
  ShadowAccess later;
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
  struct Word {
    ShadowAccess writes[kKept];
    unsigned write_count = 0;
    ShadowAccess reads[kKept];
    unsigned read_count = 0;
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
