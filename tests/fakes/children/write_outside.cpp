// Tries to create the file argv[1] (meant to be outside its work dir). Exits 0
// and prints "wrote" if it could, 2 and prints why if not.
#include <cerrno>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  std::FILE* file = std::fopen(argv[1], "w");
  if (file == nullptr) {
    std::printf("cannot write %s: %s\n", argv[1], std::strerror(errno));
    return 2;
  }
  std::fputs("escaped\n", file);
  std::fclose(file);
  std::printf("wrote %s\n", argv[1]);
  return 0;
}
