#include "grading/page_cache_warmup.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <vector>

#include "process/unique_fd.hpp"

namespace parlab::grader {
namespace {

namespace fs = std::filesystem;

std::uint64_t warm_file(const fs::path& file, std::vector<char>& buffer) {
  process::UniqueFd fd(::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) return 0;
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_WILLNEED);
  std::uint64_t total = 0;
  for (;;) {
    ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n <= 0) break;
    total += static_cast<std::uint64_t>(n);
  }
  return total;
}

}  // namespace

std::uint64_t warm_page_cache(const fs::path& dir) {
  std::vector<char> buffer(1 << 20);
  std::uint64_t total = 0;
  std::error_code error;
  if (fs::is_regular_file(fs::symlink_status(dir, error))) return warm_file(dir, buffer);
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    std::error_code type_error;
    if (it->is_regular_file(type_error) && !it->is_symlink(type_error))
      total += warm_file(it->path(), buffer);
  }
  return total;
}

}  // namespace parlab::grader
