// Fake submission (tests/fakes/sandbox): no lab code. It asks a server on this machine
// (127.0.0.1:@PORT@, started by the e2e test) for the answers, and stores something in
// its uid's kernel keyring for a later run. It fails with "NET: ..." and "KEYS: ..."
// saying what it managed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace {

std::string ask_for_answers() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return std::string("socket refused: ") + std::strerror(errno);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(@PORT@);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string said;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    said = std::string("could not connect: ") + std::strerror(errno);
  } else {
    char buffer[64] = {};
    const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
    said = "connected, the server said: " + std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
  }
  ::close(fd);
  return said;
}

std::string keep_in_keyring() {
  // KEY_SPEC_USER_KEYRING = -4: the uid's own keyring, which outlives the process.
  const long id = ::syscall(SYS_add_key, "user", "parlab-answers", "42", 2, -4);
  return id >= 0 ? "stored a key" : std::string("add_key refused: ") + std::strerror(errno);
}

}  // namespace

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  throw std::runtime_error("NET: " + ask_for_answers() + "; KEYS: " + keep_in_keyring());
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  return {compute_file_stats(paths.empty() ? std::string() : paths.front())};
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
