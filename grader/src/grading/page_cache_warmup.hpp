#pragma once
// Puts a dataset back into the page cache before a timed run. Baseline and
// candidate read the same dataset files (read-only, shared); a submission can
// evict them from the cache (posix_fadvise DONTNEED works on a read-only
// descriptor) so that the *next* run, the baseline's, reads from disk and looks
// slow. Warming the dataset before every timed run restores the cache state the
// run starts from, whatever the previous run did (docs/sandbox.md, the table).
#include <cstdint>
#include <filesystem>

namespace parlab::grader {

// Reads every regular file under `dir` (links are not followed) once, after
// asking the kernel to read ahead (POSIX_FADV_WILLNEED). Returns the bytes read.
// Unreadable entries are skipped: the run that needs them reports it.
std::uint64_t warm_page_cache(const std::filesystem::path& dir);

}  // namespace parlab::grader
