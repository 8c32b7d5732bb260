#include "config/code_seal.hpp"

#include <link.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace parlab_sim::detail {
namespace {

#ifndef SYS_mseal
#define SYS_mseal 462  // Linux 6.10; glibc 2.36 has no name for it yet
#endif

unsigned long page_size() { return static_cast<unsigned long>(::sysconf(_SC_PAGESIZE)); }

int note_object(dl_phdr_info* info, std::size_t, void* into) {
  auto& ranges = *static_cast<std::vector<SealedRange>*>(into);
  // The vDSO is the kernel's, mapped into every process; it is not patched through here.
  const unsigned long vdso = ::getauxval(AT_SYSINFO_EHDR);
  const unsigned long page = page_size();
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    const unsigned long start = info->dlpi_addr + segment.p_vaddr;
    if (vdso != 0 && segment.p_type == PT_LOAD && start <= vdso && vdso < start + segment.p_memsz) return 0;
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    const unsigned long start = info->dlpi_addr + segment.p_vaddr;
    SealedRange range{start & ~(page - 1), 0};
    if (segment.p_type == PT_LOAD && (segment.p_flags & PF_W) == 0) {
      range.end = (start + segment.p_memsz + page - 1) & ~(page - 1);
    } else if (segment.p_type == PT_GNU_RELRO) {
      // What the loader made read-only: the range rounded down at its end, as it does.
      range.end = (start + segment.p_memsz) & ~(page - 1);
    }
    if (range.end > range.begin) ranges.push_back(range);
  }
  return 0;  // every object
}

}  // namespace

std::vector<SealedRange> read_only_ranges_of_loaded_objects() {
  std::vector<SealedRange> ranges;
  dl_iterate_phdr(&note_object, &ranges);
  return ranges;
}

long mseal_pages(const void* begin, unsigned long bytes) { return ::syscall(SYS_mseal, begin, bytes, 0); }

bool seal_loaded_code(std::string& problem) {
  for (const SealedRange& range : read_only_ranges_of_loaded_objects()) {
    if (mseal_pages(reinterpret_cast<const void*>(range.begin), range.end - range.begin) == 0) continue;
    if (errno == ENOSYS || errno == EOPNOTSUPP) return true;  // no mseal: nothing can be sealed
    char where[96];
    std::snprintf(where, sizeof where, "mseal of loaded code %#lx-%#lx: ", range.begin, range.end);
    problem = where + std::string(std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace parlab_sim::detail
