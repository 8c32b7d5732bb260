// Prints its whole environment, one NAME=value per line.
#include <cstdio>

extern char** environ;

int main() {
  for (char** entry = environ; *entry != nullptr; ++entry) std::puts(*entry);
  return 0;
}
