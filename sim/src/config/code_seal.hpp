#pragma once
// The code of every object loaded at start-up sealed before the submission runs
// (docs/sandbox.md, "The runtime locks itself before the submission runs"). The checks
// run in the submission's process, through hooks whose names are public (instrumented
// code calls __tsan_read4 and the like): a submission that made their code writable and
// wrote a return at their start would switch off the race check and the counters
// without touching any data. So each object's read-only segments (its code, constant
// data, and the RELRO part holding its GOT and vtables, read-only once relocated) are
// sealed with mseal: no mprotect, munmap, mremap or MAP_FIXED mapping over them, for the
// life of the process and every child it forks. The kernel's vDSO is left as it is.
#include <string>
#include <vector>

namespace parlab_sim::detail {

// One page-rounded range of an object's image.
struct SealedRange {
  unsigned long begin = 0;
  unsigned long end = 0;
};

// mseal(2) of the pages [begin, begin + bytes): 0, or -1 with errno (ENOSYS or
// EOPNOTSUPP: a kernel without it, before Linux 6.10). The lock's one way to seal.
long mseal_pages(const void* begin, unsigned long bytes);

// The ranges to seal, of every object now loaded (dl_iterate_phdr, not signal-safe).
std::vector<SealedRange> read_only_ranges_of_loaded_objects();

// Seals them; false with the range and the reason in `problem` when the kernel refused
// one for any reason but lacking mseal (Linux 6.10: then nothing is sealed, and the lock's
// seccomp filter still refuses to make code writable or writable memory code).
bool seal_loaded_code(std::string& problem);

}  // namespace parlab_sim::detail
