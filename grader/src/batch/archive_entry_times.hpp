#pragma once
// The newest modification time stored inside an archive, for the late policy: when
// the student packed their work, which the archive file's own time is not (a download
// or a copy resets it).
#include <cstdint>
#include <filesystem>
#include <optional>

namespace parlab::grader::batch {

// The newest time of the archive's regular-file entries that carry one; nothing when
// none does or the archive cannot be read (grade batch then rejects it, naming why).
// A zip entry without the extended-time field stores its packer's local time with no
// zone; libarchive reads it in this machine's zone.
std::optional<std::int64_t> newest_archive_entry_time(const std::filesystem::path& archive_path);

}  // namespace parlab::grader::batch
