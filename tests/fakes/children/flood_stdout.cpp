// Writes argv[1] bytes ("forever": no end) of 'x' to stdout, or to stderr when
// argv[2] is "stderr".
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  bool forever = argc < 2 || std::strcmp(argv[1], "forever") == 0;
  unsigned long long left = forever ? 0 : std::strtoull(argv[1], nullptr, 10);
  int fd = (argc > 2 && std::strcmp(argv[2], "stderr") == 0) ? 2 : 1;
  std::string block(64 * 1024, 'x');
  while (forever || left > 0) {
    std::size_t size = forever || left > block.size() ? block.size() : left;
    ssize_t written = ::write(fd, block.data(), size);
    if (written <= 0) return 1;
    if (!forever) left -= static_cast<unsigned long long>(written);
  }
  return 0;
}
