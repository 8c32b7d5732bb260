#pragma once
// The race check's memory of one running block (docs/simulation.md, "Race check"):
// for every 4-byte word of shared memory and device memory the block touched since
// its last __syncthreads(), the last write and up to two reads, each with the thread,
// the code address and the barrier / warp-sync epoch it happened in. Two accesses to
// one word conflict when they come from different threads in the same epoch (for two
// lanes of one warp: no warp collective between them either), at least one writes,
// and not both are atomic. Pure bookkeeping: the caller classifies addresses and
// reports the conflicts it is handed.
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace parlab_sim::detail {

struct ShadowAccess {
  const void* pc = nullptr;    // the instruction after the access's hook call
  std::uint32_t epoch = 0;     // block barriers completed before it (+1; 0: none)
  std::uint32_t warp_epoch = 0;
  std::uint16_t lane = 0;      // linear thread index in the block
  bool atomic = false;
};

struct RaceConflict {
  std::uintptr_t word = 0;
  ShadowAccess earlier;
  bool earlier_is_write = false;
  ShadowAccess later;
  bool later_is_write = false;
};

class BlockShadow {
 public:
  void reset(unsigned warps);
  void on_barrier() { ++epoch_; }
  void on_warp_sync(unsigned warp) { ++warp_epochs_[warp]; }

  // Records an access by `lane` to the words of [address, address + bytes); returns
  // the first conflict found (word == 0: none).
  RaceConflict access(std::uintptr_t address, std::size_t bytes, bool write, bool atomic,
                      unsigned lane, const void* pc);

 private:
  struct Word {
    ShadowAccess write;
    bool has_write = false;
    ShadowAccess reads[2];
    unsigned read_count = 0;
  };
  bool ordered(const ShadowAccess& a, const ShadowAccess& b) const;
  RaceConflict access_word(std::uintptr_t word, bool write, const ShadowAccess& now);

  std::uint32_t epoch_ = 1;
  std::vector<std::uint32_t> warp_epochs_;
  std::unordered_map<std::uintptr_t, Word> words_;
};

}  // namespace parlab_sim::detail
