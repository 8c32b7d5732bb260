// Starts a grandchild that leaves the process group and session (setsid) and then
// sleeps forever, prints "escaped <pid>" and exits 0: only a kill of the whole
// cgroup (or pid namespace) reaches the grandchild.
#include <unistd.h>

#include <cstdio>

int main() {
  int ready[2];
  if (::pipe(ready) != 0) return 1;
  std::fflush(stdout);
  pid_t child = ::fork();
  if (child < 0) return 1;
  if (child == 0) {
    ::setsid();
    std::printf("escaped %d\n", static_cast<int>(::getpid()));
    std::fflush(stdout);
    ::close(ready[0]);
    ::close(ready[1]);  // the parent's read returns: we are on our own now
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char byte;
  (void)::read(ready[0], &byte, 1);
  return 0;
}
