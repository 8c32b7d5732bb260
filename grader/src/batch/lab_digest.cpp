#include "batch/lab_digest.hpp"

#include <algorithm>

#include "batch/record_identity.hpp"
#include "compile/content_hash.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

// Documentation, and Python's bytecode cache (derived from the .py files hashed anyway,
// and written whenever an interpreter imports them in place).
bool left_out(const fs::path& name) { return name == "README.md" || name == "figures" || name == "__pycache__"; }

}  // namespace

std::string lab_digest(const fs::path& lab_dir, const std::vector<fs::path>& built) {
  std::vector<fs::path> names;
  for (const fs::directory_entry& e : fs::directory_iterator(lab_dir)) {
    if (!left_out(e.path().filename())) names.push_back(e.path().filename());
  }
  std::sort(names.begin(), names.end());
  ContentHash h;
  h.add("lab");
  for (const fs::path& name : names) h.add(name.string()).add(submission_content_hash(lab_dir / name));
  h.add("built");
  for (const fs::path& p : built) {
    std::error_code ec;
    const bool present = !p.empty() && fs::exists(fs::symlink_status(p, ec));
    h.add(p.filename().string()).add(present ? submission_content_hash(p) : std::string("absent"));
  }
  return h.hex();
}

}  // namespace parlab::grader::batch
