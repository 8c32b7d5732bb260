// Sends itself the signal number argv[1] (SIGKILL included), as if killed by it.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

int main(int argc, char** argv) {
  int signal_number = argc > 1 ? std::atoi(argv[1]) : SIGTERM;
  ::kill(::getpid(), signal_number);
  ::pause();
  return 0;
}
