// Forks argv[1] children (default 8) that each allocate and touch argv[2] MiB
// (default 400) and then wait: every process stays under a per-process address
// space limit, together they use far more. Exits 1 if any child did not finish
// normally, 0 otherwise (only a limit on the whole tree can stop it).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const int children = argc > 1 ? std::atoi(argv[1]) : 8;
  const std::size_t mib = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 400;
  for (int i = 0; i < children; ++i) {
    pid_t pid = ::fork();
    if (pid < 0) {
      std::perror("fork");
      return 1;
    }
    if (pid == 0) {
      // Volatile: the compiler may not drop an allocation nobody reads.
      volatile char* block = static_cast<volatile char*>(std::malloc(mib << 20));
      if (!block) _exit(3);
      for (std::size_t page = 0; page < (mib << 20); page += 4096) block[page] = 1;
      ::sleep(2);
      _exit(0);
    }
  }
  int failed = 0;
  int status = 0;
  while (::wait(&status) > 0)
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  std::printf("%d of %d children failed\n", failed, children);
  return failed ? 1 : 0;
}
