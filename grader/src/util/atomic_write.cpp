// The grader's results are durable: the harness's atomic write with fsync, after the
// target's directories are made.
#include "util/atomic_write.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

#include "parlab/harness/atomic_file.hpp"

namespace parlab::grader {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  if (path.filename().empty()) {
    throw std::runtime_error("cannot write '" + path.string() + "': not a file name");
  }
  const std::filesystem::path dir = path.parent_path();
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      throw std::runtime_error("cannot write '" + path.string() + "': creating directory '" +
                               dir.string() + "': " + ec.message());
    }
  }
  harness::write_file_atomically(path, content, harness::Durability::disk);
}

}  // namespace parlab::grader
