#pragma once
// The forked helper of the submission stager (submission_stager.hpp), and the records it
// sends the grader over a pipe. The helper is a fork of a possibly multi-threaded
// grader: it makes async-signal-safe calls only and allocates nothing. It takes the
// submission folder owner's ids when the grader is root, then either walks the folder
// tree or streams the files it is given, and _exits.
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace parlab::grader::staging {

// One record per file (or per name, for the walk) from the helper to the grader.
enum class Kind : std::int32_t {
  ok,            // chunks follow, then a trailer record
  missing,
  symlink,
  not_regular,   // `detail` holds the st_mode file type bits
  too_big,       // `size` holds the size seen
  unreadable,    // `detail` holds errno
  no_privileges, // the helper could not take the folder owner's ids; `detail` holds errno
  // The walk's records, each followed by [u32 length][path bytes]:
  entry,         // a name found (a folder too, before it is entered); `detail`: its depth
  folder_link,   // a symbolic link to a folder
  too_many,      // the walk looked at more names than allowed (the path is where it stopped)
  walk_end       // no path follows
};

struct Record {
  Kind kind;
  std::int32_t detail;
  std::uint64_t size;
};

constexpr std::size_t kChunkBytes = 64 * 1024;  // the most file bytes in one chunk
constexpr std::size_t kMaxPathBytes = 1024;     // a staged path is shorter
constexpr int kMaxWalkDepth = 15;               // sub-folder levels the walk can enter

bool write_all(int fd, const void* data, std::size_t n);

// Every name in the tree under `dir`, depth first, as Kind::entry / folder_link /
// too_many records each followed by [u32 length][path bytes], then Kind::walk_end.
// Folders up to `max_depth` levels down are entered (never hidden ones or __MACOSX),
// `budget` names at most.
[[noreturn]] void walk_main(int out, int dir, uid_t owner_uid, gid_t owner_gid, int max_depth,
                            int budget);

// For each of `names` (relative paths the walk found): Record{ok}, chunks of
// [u32 length][bytes], a zero length and a trailer Record; or one refusal Record.
[[noreturn]] void read_main(int out, int dir, uid_t owner_uid, gid_t owner_gid,
                            const std::vector<const char*>& names, std::uint64_t max_bytes);

}  // namespace parlab::grader::staging
