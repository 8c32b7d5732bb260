// Prints the contents of the file argv[1]: exit 0. If it cannot be opened,
// prints why: exit 2.
#include <cerrno>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  std::FILE* file = std::fopen(argv[1], "r");
  if (file == nullptr) {
    std::printf("cannot read %s: %s\n", argv[1], std::strerror(errno));
    return 2;
  }
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) std::fwrite(buffer, 1, n, stdout);
  std::fclose(file);
  return 0;
}
