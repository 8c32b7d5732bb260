#pragma once
// Numbers as a student reads them in a reason: "10 s", "0.5 s", "8 MiB".
#include <cstdint>
#include <string>

namespace parlab::grader::process {

// At most one decimal, none when whole: 10 -> "10 s", 0.25 -> "0.3 s", 1.04 -> "1 s".
std::string format_seconds(double seconds);

// The largest binary unit that fits, at most one decimal:
// 8388608 -> "8 MiB", 1536 -> "1.5 KiB", 100 -> "100 bytes".
std::string format_bytes(std::uint64_t bytes);

}  // namespace parlab::grader::process
