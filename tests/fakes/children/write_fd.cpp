// Writes argv[2] to the descriptor numbered argv[1] in one write (a send on a socket);
// then, with argv[3] "read-back", tries to read what it wrote back out of that
// descriptor and through /proc/self/fd; with "flood", goes on writing 60 KiB records
// until a write fails. Exits 0 and prints "sent" when the write went
// through, and "read back" if anything came back; 2 and prints why when the write failed.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) return 64;
  const int fd = std::atoi(argv[1]);
  const std::size_t size = std::strlen(argv[2]);
  if (::write(fd, argv[2], size) != static_cast<ssize_t>(size)) {
    std::printf("cannot write to %d: %s\n", fd, std::strerror(errno));
    return 2;
  }
  std::printf("sent\n");
  if (argc >= 4 && std::string(argv[3]) == "flood") {
    const std::string record(60 << 10, 'x');
    while (::write(fd, record.data(), record.size()) > 0) {
    }
  }
  if (argc >= 4 && std::string(argv[3]) == "read-back") {
    char buffer[256];
    if (::fcntl(fd, F_SETFL, O_NONBLOCK) == 0 && ::read(fd, buffer, sizeof buffer) > 0) std::printf("read back\n");
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    const int again = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
    if (again >= 0 && ::read(again, buffer, sizeof buffer) > 0) std::printf("read back\n");
  }
  return 0;
}
