// Never ends on its own: for the wall-clock limit.
#include <unistd.h>

#include <cstdio>

int main() {
  std::puts("sleeping");
  std::fflush(stdout);
  for (;;) ::pause();
}
