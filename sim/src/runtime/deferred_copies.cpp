#include "runtime/deferred_copies.hpp"

#include <cstring>
#include <mutex>
#include <vector>

#include "runtime/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

struct PendingCopy {
  cudaStream_t stream;
  std::uint64_t number;  // issue order
  std::byte* dst;
  std::vector<std::byte> bytes;
};

std::mutex g_mutex;
std::vector<PendingCopy> g_pending;
std::uint64_t g_issued = 0;

bool is_legacy_default(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy;
}

bool is_page_locked_host(const void* pointer) {
  MemoryRange range;
  if (!MemoryRegistry::instance().find(reinterpret_cast<std::uintptr_t>(pointer), range)) return false;
  return range.kind == MemoryKind::pinned_host || range.kind == MemoryKind::registered_host;
}

bool is_device_memory(const void* pointer) {
  MemoryRange range;
  if (!MemoryRegistry::instance().find(reinterpret_cast<std::uintptr_t>(pointer), range)) return false;
  return range.kind == MemoryKind::device || range.kind == MemoryKind::symbol;
}

// Writes (in issue order) and forgets the pending copies `done` selects.
template <class Done>
void complete_if(Done done) {
  std::lock_guard lock(g_mutex);
  std::vector<PendingCopy> kept;
  for (PendingCopy& copy : g_pending) {
    if (done(copy)) {
      std::memcpy(copy.dst, copy.bytes.data(), copy.bytes.size());
    } else {
      kept.push_back(std::move(copy));
    }
  }
  g_pending.swap(kept);
}

}  // namespace

bool copy_is_deferred(void* dst, const void* src, cudaMemcpyKind kind) {
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDefault) return false;
  return is_device_memory(src) && is_page_locked_host(dst);
}

void defer_copy_to_host(cudaStream_t stream, void* dst, const void* src, std::size_t bytes) {
  complete_copies_touching(dst, bytes);  // an earlier copy to the same bytes lands first
  const auto* from = static_cast<const std::byte*>(src);
  std::lock_guard lock(g_mutex);
  g_pending.push_back(PendingCopy{stream, ++g_issued, static_cast<std::byte*>(dst),
                                  std::vector<std::byte>(from, from + bytes)});
}

void complete_stream_copies(cudaStream_t stream) {
  if (is_legacy_default(stream)) return complete_all_copies();
  complete_if([&](const PendingCopy& copy) { return copy.stream == stream; });
}

void complete_all_copies() {
  complete_if([](const PendingCopy&) { return true; });
}

std::uint64_t copies_issued() {
  std::lock_guard lock(g_mutex);
  return g_issued;
}

void complete_stream_copies_before(cudaStream_t stream, std::uint64_t issued) {
  const bool every_stream = is_legacy_default(stream);
  complete_if([&](const PendingCopy& copy) {
    return copy.number <= issued && (every_stream || copy.stream == stream);
  });
}

void complete_copies_touching(const void* pointer, std::size_t bytes) {
  const auto* begin = static_cast<const std::byte*>(pointer);
  const std::byte* end = begin + bytes;
  complete_if([&](const PendingCopy& copy) {
    return copy.dst < end && begin < copy.dst + copy.bytes.size();
  });
}

}  // namespace parlab_sim::detail
