// Calls abort(): SIGABRT.
#include <cstdio>
#include <cstdlib>

int main() {
  std::fputs("giving up\n", stderr);
  std::abort();
}
