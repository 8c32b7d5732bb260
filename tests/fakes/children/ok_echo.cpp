// Well-behaved child: prints its arguments and $PARLAB_GREETING, writes a file
// in its current directory, exits 0.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) std::printf("arg: %s\n", argv[i]);
  const char* greeting = std::getenv("PARLAB_GREETING");
  std::printf("greeting: %s\n", greeting ? greeting : "(unset)");
  std::FILE* file = std::fopen("ok_echo.txt", "w");
  if (file == nullptr) {
    std::perror("ok_echo.txt");
    return 1;
  }
  std::fputs("written by ok_echo\n", file);
  std::fclose(file);
  std::fprintf(stderr, "ok_echo done\n");
  return 0;
}
