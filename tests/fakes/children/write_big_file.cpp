// Writes argv[1] MiB to big.bin in the current directory: past RLIMIT_FSIZE the
// kernel sends SIGXFSZ.
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  long mib = argc > 1 ? std::atol(argv[1]) : 64;
  std::FILE* file = std::fopen("big.bin", "wb");
  if (file == nullptr) {
    std::perror("big.bin");
    return 1;
  }
  std::vector<char> block(1 << 20, 'b');
  for (long i = 0; i < mib; ++i) {
    if (std::fwrite(block.data(), 1, block.size(), file) != block.size()) {
      std::perror("fwrite");
      return 1;
    }
    std::fflush(file);
  }
  std::fclose(file);
  return 0;
}
