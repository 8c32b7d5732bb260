#include "config/program_code.hpp"

#include <link.h>

#include <cstdint>

#include "config/locked_state.hpp"

namespace parlab_sim::detail {
namespace {

// The first object dl_iterate_phdr visits is the executable itself.
int note_executable(dl_phdr_info* info, std::size_t, void* into) {
  auto& range = *static_cast<ProgramCodeRange*>(into);
  std::uintptr_t begin = UINTPTR_MAX;
  std::uintptr_t end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || (segment.p_flags & PF_X) == 0) continue;
    const std::uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    if (start < begin) begin = start;
    if (start + segment.p_memsz > end) end = start + segment.p_memsz;
  }
  if (begin < end) {
    range.load_bias = info->dlpi_addr;
    range.begin = begin;
    range.end = end;
  }
  return 1;  // the executable only
}

}  // namespace

void look_up_program_code_once() {
  if (g_locked.program_code.looked) return;  // done: and after the lock, never written
  ProgramCodeRange found;
  dl_iterate_phdr(&note_executable, &found);
  found.looked = true;
  g_locked.program_code = found;
}

}  // namespace parlab_sim::detail
