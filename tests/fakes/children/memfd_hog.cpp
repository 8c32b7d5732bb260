// Grows memfd files by argv[1] MiB each (default 64) until something stops it,
// writing into them with write(): no mapping, so RLIMIT_AS never sees it, and
// each file stays below the file size limit. Only a memory cgroup bounds it.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const std::size_t chunk_mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  std::vector<char> mib(1 << 20, 'x');
  for (int file = 0;; ++file) {
    int fd = ::memfd_create("hog", 0);
    if (fd < 0) {
      std::perror("memfd_create");
      return 1;
    }
    for (std::size_t i = 0; i < chunk_mib; ++i) {
      if (::write(fd, mib.data(), mib.size()) != static_cast<ssize_t>(mib.size())) {
        std::perror("write");
        return 1;
      }
    }
    // Kept open: the memory stays charged.
  }
}
