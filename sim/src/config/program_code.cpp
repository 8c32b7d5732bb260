#include "config/program_code.hpp"

#include <link.h>

#include <cstdint>
#include <utility>

#include "config/locked_state.hpp"

namespace parlab_sim::detail {
namespace {

struct ProgramRanges {
  ProgramCodeRange code;
  ProgramDataRange data;
};

// The lowest and highest address of the segments loaded with `flag` (PF_X, PF_W).
std::pair<std::uintptr_t, std::uintptr_t> segments_with(const dl_phdr_info& info, ElfW(Word) flag) {
  std::uintptr_t begin = UINTPTR_MAX;
  std::uintptr_t end = 0;
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info.dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || (segment.p_flags & flag) == 0) continue;
    const std::uintptr_t start = info.dlpi_addr + segment.p_vaddr;
    if (start < begin) begin = start;
    if (start + segment.p_memsz > end) end = start + segment.p_memsz;
  }
  return {begin, end};
}

// The first object dl_iterate_phdr visits is the executable itself.
int note_executable(dl_phdr_info* info, std::size_t, void* into) {
  auto& ranges = *static_cast<ProgramRanges*>(into);
  if (const auto [begin, end] = segments_with(*info, PF_X); begin < end) {
    ranges.code.load_bias = info->dlpi_addr;
    ranges.code.begin = begin;
    ranges.code.end = end;
  }
  if (const auto [begin, end] = segments_with(*info, PF_W); begin < end) {
    ranges.data.begin = begin;
    ranges.data.end = end;
  }
  return 1;  // the executable only
}

}  // namespace

void look_up_program_code_once() {
  if (g_locked.program_code.looked) return;  // done: and after the lock, never written
  ProgramRanges found;
  dl_iterate_phdr(&note_executable, &found);
  found.code.looked = true;
  g_locked.program_code = found.code;
  g_locked.program_data = found.data;
}

}  // namespace parlab_sim::detail
