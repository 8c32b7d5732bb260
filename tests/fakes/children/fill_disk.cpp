// Writes files of argv[1] MiB each (default 8, below the file size limit) into
// the current directory until a write fails, then exits 1: many small files get
// past RLIMIT_FSIZE, only a quota on the folder stops them.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 8;
  std::vector<char> block(1 << 20, 'd');
  for (int n = 0; n < 100000; ++n) {
    std::FILE* file = std::fopen(("filler_" + std::to_string(n)).c_str(), "w");
    if (!file) {
      std::perror("fopen");
      return 1;
    }
    for (std::size_t i = 0; i < mib; ++i) {
      if (std::fwrite(block.data(), 1, block.size(), file) != block.size()) {
        std::perror("fwrite");
        return 1;
      }
    }
    if (std::fclose(file) != 0) {
      std::perror("fclose");
      return 1;
    }
  }
  return 0;
}
