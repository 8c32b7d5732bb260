// Forks argv[1] grandchildren that never end on their own. Each rewrites
// heartbeat_<n> in the current directory every 20 ms, so a test can see whether
// any of them still runs; the parent prints "child <pid>" for each once its
// first heartbeat is written. Then the parent exits 0 (argv[2] "exit", the
// default) or sleeps forever ("sleep").
#include <sys/types.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

[[noreturn]] void heartbeat(int n, int started_fd) {
  std::string name = "heartbeat_" + std::to_string(n);
  for (unsigned long beat = 0;; ++beat) {
    if (std::FILE* file = std::fopen(name.c_str(), "w")) {
      std::fprintf(file, "%lu\n", beat);
      std::fclose(file);
    }
    if (beat == 0) {
      char started = 1;
      (void)::write(started_fd, &started, 1);
      ::close(started_fd);
    }
    ::usleep(20000);
  }
}

int main(int argc, char** argv) {
  int count = argc > 1 ? std::atoi(argv[1]) : 2;
  bool parent_sleeps = argc > 2 && std::strcmp(argv[2], "sleep") == 0;
  for (int n = 0; n < count; ++n) {
    int started[2];
    if (::pipe(started) != 0) {
      std::perror("pipe");
      return 1;
    }
    std::fflush(stdout);
    pid_t pid = ::fork();
    if (pid < 0) {
      std::perror("fork");
      return 1;
    }
    if (pid == 0) {
      ::close(started[0]);
      heartbeat(n, started[1]);
    }
    ::close(started[1]);
    char byte;
    (void)::read(started[0], &byte, 1);  // its first heartbeat is on disk
    ::close(started[0]);
    std::printf("child %d\n", static_cast<int>(pid));
  }
  std::fflush(stdout);
  if (parent_sleeps)
    for (;;) ::pause();
  return 0;
}
