#include "cli/output_paths.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "core/errors.hpp"
#include "util/atomic_write.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

void require_writable_output(const fs::path& file, const std::string& option) {
  const fs::path absolute = fs::absolute(file);
  const fs::path folder = absolute.parent_path();
  std::error_code ec;
  if (fs::is_directory(absolute, ec)) {
    throw UsageError(option + " " + file.string() + ": is a folder; give a file name");
  }
  if (!fs::is_directory(folder, ec)) {
    throw UsageError(option + " " + file.string() + ": folder " + folder.string() +
                     " does not exist");
  }
  // Written as a temporary file in that folder and renamed (util/atomic_write).
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw EnvironmentError(option + " " + file.string() + ": cannot write in " +
                           folder.string() + " (" + std::strerror(errno) + ")");
  }
}

void write_report_file(const fs::path& file, const std::string& text) {
  try {
    write_file_atomically(file, text);
  } catch (const std::exception& e) {
    throw EnvironmentError(e.what());
  }
}

}  // namespace parlab::grader
