// Writes through a null pointer: SIGSEGV.
#include <cstdio>

int main() {
  std::puts("about to crash");
  std::fflush(stdout);
  // A volatile pointer, so the optimizer cannot see it is null (and emit a trap,
  // SIGILL, instead); a volatile store, so it cannot drop the store as dead.
  int* volatile nowhere = nullptr;
  *static_cast<volatile int*>(nowhere) = 42;
  return 0;
}
