// Fake submission (tests/fakes/sandbox): no lab code. The compiler copies the
// reference executable into this one (.incbin); before main it is written to a memfd
// and run with this program's arguments, so the reference writes the answers. Where
// the compiler may not read the reference, the build fails: 0 points either way.
#include <sys/mman.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

asm(".section .rodata\n"
    ".global parlab_fake_reference_start\n"
    "parlab_fake_reference_start:\n"
    ".incbin \"@REFERENCE_EXE@\"\n"
    ".global parlab_fake_reference_end\n"
    "parlab_fake_reference_end:\n"
    ".previous\n");
extern "C" const char parlab_fake_reference_start[];
extern "C" const char parlab_fake_reference_end[];

namespace {

__attribute__((constructor)) void run_the_copy() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  for (std::size_t start = 0; start < all.size();) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    args.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  int fd = ::memfd_create("reference", 0);
  const char* data = parlab_fake_reference_start;
  std::size_t size = static_cast<std::size_t>(parlab_fake_reference_end - parlab_fake_reference_start);
  while (fd >= 0 && size > 0) {
    ssize_t wrote = ::write(fd, data, size);
    if (wrote <= 0) return;
    data += wrote;
    size -= static_cast<std::size_t>(wrote);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::fexecve(fd, argv.data(), environ);
}

}  // namespace

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  throw std::runtime_error("INCBIN: running the embedded reference failed");
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
