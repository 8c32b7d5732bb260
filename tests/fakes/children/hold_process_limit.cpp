// Forks until fork() fails (EAGAIN at the process limit), prints how many
// processes it got, then keeps them all alive sleeping for argv[1] seconds
// (default 3): the process limit stays exhausted for that long.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const int hold_seconds = argc > 1 ? std::atoi(argv[1]) : 3;
  int forked = 0;
  for (; forked < 100000; ++forked) {
    pid_t pid = ::fork();
    if (pid < 0) {
      std::printf("fork failed after %d: %s\n", forked, std::strerror(errno));
      break;
    }
    if (pid == 0) {
      ::sleep(hold_seconds + 5);
      _exit(0);
    }
  }
  std::fflush(stdout);
  ::sleep(hold_seconds);
  return 0;
}
