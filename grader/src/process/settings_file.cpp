#include "process/settings_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>

#include <cerrno>
#include <system_error>

namespace parlab::grader::process {
namespace {

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

}  // namespace

UniqueFd sealed_settings_file(const std::string& text) {
  UniqueFd file(::memfd_create("parlab-sim-settings", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (file.get() < 0) fail("memfd_create (simulator settings)");
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(file.get(), text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write (simulator settings)");
    written += static_cast<std::size_t>(n);
  }
  if (::fcntl(file.get(), F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0)
    fail("sealing the simulator settings");
  return file;
}

}  // namespace parlab::grader::process
