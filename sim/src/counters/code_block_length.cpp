#include "counters/code_block_length.hpp"

#include "counters/function_bounds.hpp"

#include <link.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace parlab_sim::detail {

namespace {

constexpr unsigned char kCallRel32 = 0xE8;
constexpr std::size_t kCallBytes = 5;

std::int32_t displacement_at(const unsigned char* code) {
  std::int32_t value = 0;
  std::memcpy(&value, code, sizeof value);
  return value;
}

// The executable mapping that holds `address`, from the program headers of the loaded
// objects (no /proc read, no allocation).
struct Mapping {
  std::uintptr_t address = 0;
  const unsigned char* begin = nullptr;
  std::size_t size = 0;
};

int find_mapping(dl_phdr_info* info, std::size_t, void* data) {
  auto* mapping = static_cast<Mapping*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_X) == 0 || (header.p_flags & PF_R) == 0) {
      continue;
    }
    const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
    if (mapping->address >= begin && mapping->address < begin + header.p_memsz) {
      mapping->begin = reinterpret_cast<const unsigned char*>(begin);
      mapping->size = header.p_memsz;
      return 1;
    }
  }
  return 0;
}

std::mutex g_mutex;
std::unordered_map<const void*, std::uint32_t> g_lengths;

}  // namespace

std::uint32_t code_block_length_in(const unsigned char* code, std::size_t size, std::size_t start) {
  if (start < kCallBytes || start > size || code[start - kCallBytes] != kCallRel32) {
    return kUnknownCodeBlockBytes;
  }
  // The hook's address, as this call site reaches it (directly or through a PLT entry).
  const std::int64_t target =
      static_cast<std::int64_t>(start) + displacement_at(code + start - 4);
  const std::size_t end = std::min(size, start + kMaxCodeBlockBytes);
  for (std::size_t at = start; at + kCallBytes <= end; ++at) {
    if (code[at] != kCallRel32) continue;
    const std::int64_t next = static_cast<std::int64_t>(at + kCallBytes);
    if (next + displacement_at(code + at + 1) == target) {
      return static_cast<std::uint32_t>(std::max<std::size_t>(at - start, 1));
    }
  }
  return static_cast<std::uint32_t>(end - start);
}

std::uint32_t code_block_length(const void* return_address) {
  std::lock_guard lock(g_mutex);
  if (const auto it = g_lengths.find(return_address); it != g_lengths.end()) return it->second;
  Mapping mapping;
  mapping.address = reinterpret_cast<std::uintptr_t>(return_address);
  std::uint32_t length = kUnknownCodeBlockBytes;
  if (dl_iterate_phdr(find_mapping, &mapping) != 0) {
    // The block ends at the next coverage call, or where its function ends.
    std::size_t size = mapping.size;
    if (const auto end = function_end_of(return_address);
        end && *end > mapping.address &&
        *end <= reinterpret_cast<std::uintptr_t>(mapping.begin) + mapping.size) {
      size = *end - reinterpret_cast<std::uintptr_t>(mapping.begin);
    }
    length = code_block_length_in(mapping.begin, size, mapping.address -
                                      reinterpret_cast<std::uintptr_t>(mapping.begin));
  }
  g_lengths.emplace(return_address, length);
  return length;
}

}  // namespace parlab_sim::detail
