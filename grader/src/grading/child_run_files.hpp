#pragma once
// The one reader for everything a child process leaves in its run folder (status,
// timings, manifest, arrays). The child is untrusted (DESIGN invariant 1): its
// folder is opened from a descriptor the grader opened itself, no path component is
// followed through a link, FIFOs and devices are refused without blocking, sizes are
// capped before reading, and every problem comes back as a reason, never a hang, a
// read outside the run folder, or an exception.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parlab/harness/arrays.hpp"

namespace parlab::grader {

// Caps for the small files the harness writes.
inline constexpr std::uint64_t kStatusFileCap = 64 << 10;
inline constexpr std::uint64_t kTimingsFileCap = 4 << 20;

struct ChildJson {
  std::optional<nlohmann::json> value;  // set when the file was read and parsed
  bool missing = false;                 // the file is simply not there
  std::string problem;                  // why value is empty (names the file)
};

class ChildRunFiles {
 public:
  // `runs_root`: the grader's own folder; `run_name`: the child's folder in it, which
  // holds the child's output folder `out/`.
  ChildRunFiles(std::filesystem::path runs_root, std::string run_name);

  // Reads and parses `out/<name>` (at most `max_bytes`).
  ChildJson read_json(const std::string& name, std::uint64_t max_bytes) const;

  // The text of `out/<name>`, or nothing when the file is missing, larger than
  // `max_bytes` or unsafe to read (a link, a FIFO, ...).
  std::optional<std::string> read_text(const std::string& name, std::uint64_t max_bytes) const;

  // The output arrays in `out/`. Throws harness::OutputFormatError with the reason.
  std::vector<harness::NamedArray> outputs(std::uint64_t max_bytes = 1ull << 31) const;

 private:
  std::filesystem::path runs_root_;
  std::string run_name_;
};

}  // namespace parlab::grader
