#include "counters/vector_access.hpp"

namespace parlab_sim::detail {

namespace {

constexpr std::uintptr_t kChunk = 16;

unsigned byte_mask(std::uintptr_t address, std::size_t bytes) {
  return ((1u << bytes) - 1u) << (address % kChunk);
}

}  // namespace

bool VectorMerger::fits_alone(const VectorPiece& piece) {
  return piece.bytes > 0 && piece.bytes < kChunk &&
         piece.address / kChunk == (piece.address + piece.bytes - 1) / kChunk;
}

bool VectorMerger::offer(const VectorPiece& piece) {
  if (!fits_alone(piece)) return false;
  const unsigned mask = byte_mask(piece.address, piece.bytes);
  if (count_ != 0) {
    // Fields come in ascending order, back to back (x, y, z, w); anything else (a
    // stencil's in[p] then in[p - 1]) is separate instructions on a GPU too.
    const VectorPiece& first = pieces_[0];
    const VectorPiece& last = pieces_[count_ - 1];
    if (count_ == 4 || piece.address != last.address + last.bytes ||
        piece.address / kChunk != chunk_ || piece.shared != first.shared ||
        piece.write != first.write || (mask & mask_) != 0) {
      return false;
    }
  }
  chunk_ = piece.address / kChunk;
  mask_ |= mask;
  pieces_[count_++] = piece;
  return true;
}

unsigned VectorMerger::drain(VectorPiece out[4]) {
  const unsigned count = count_;
  const unsigned mask = mask_;
  count_ = 0;
  mask_ = 0;
  if (count == 0) return 0;
  VectorPiece merged = pieces_[0];
  const std::uintptr_t base = chunk_ * kChunk;
  if (count > 1 && mask == 0xffffu) {
    merged.address = base;
    merged.bytes = 16;
  } else if (count > 1 && (mask == 0x00ffu || mask == 0xff00u)) {
    merged.address = mask == 0x00ffu ? base : base + 8;
    merged.bytes = 8;
  } else {
    for (unsigned i = 0; i < count; ++i) out[i] = pieces_[i];
    return count;
  }
  out[0] = merged;
  return 1;
}

}  // namespace parlab_sim::detail
