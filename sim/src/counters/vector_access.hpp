#pragma once
// One lane's vector accesses, rebuilt for the memory-access counters. A GPU loads a
// float4 / int4 / double2 (and float2 / double) with one 16- or 8-byte instruction;
// g++ often splits the same source into one access per field (x, y, z, w), each with
// its own code address. Counted as they come, a coalesced float4 copy would look like
// four loads with a 16-byte stride: four times the sectors it needs. The merger
// collects a lane's consecutive accesses of one kind (global/shared, load/store) inside
// one 16-byte aligned chunk, each starting where the previous one ended; when they fill the whole chunk, or an aligned 8-byte half
// of it, they count as one access at the first field's code address; otherwise each
// piece counts as it came (a float3 stays three 4-byte accesses, as on a GPU).
#include <cstddef>
#include <cstdint>

namespace parlab_sim::detail {

struct VectorPiece {
  const void* pc = nullptr;
  std::uintptr_t address = 0;
  std::size_t bytes = 0;
  bool shared = false;
  bool write = false;
};

class VectorMerger {
 public:
  // Offers the lane's next access. Returns false when it cannot join the pending ones:
  // the caller then calls drain() and offers it again (it always fits an empty merger
  // when it lies inside one 16-byte chunk; `fits_alone` says whether it does).
  bool offer(const VectorPiece& piece);
  static bool fits_alone(const VectorPiece& piece);
  bool empty() const { return count_ == 0; }
  // The accesses to count for what is pending (one merged access or the pieces), then
  // empty. `out` gets at most 4.
  unsigned drain(VectorPiece out[4]);

 private:
  VectorPiece pieces_[4];
  unsigned count_ = 0;
  unsigned mask_ = 0;  // bytes of the chunk covered
  std::uintptr_t chunk_ = 0;
};

}  // namespace parlab_sim::detail
