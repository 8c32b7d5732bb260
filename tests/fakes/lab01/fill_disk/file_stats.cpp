// Fake submission (tests/fakes/lab01/fill_disk): fills its run folder with 8 MiB
// files (each below the file size limit) until a write fails, then fails. Only the
// run area's disk quota stops it; the report must say "disk quota exceeded".
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  std::vector<char> mib(1 << 20, 'f');
  for (int n = 0; n < 100000; ++n) {
    std::FILE* file = std::fopen(("filler_" + std::to_string(n)).c_str(), "w");
    if (!file) throw std::runtime_error("cannot create another file");
    for (int i = 0; i < 8; ++i) {
      if (std::fwrite(mib.data(), 1, mib.size(), file) != mib.size()) {
        std::fclose(file);
        throw std::runtime_error("a write failed: the disk is full");
      }
    }
    if (std::fclose(file) != 0) throw std::runtime_error("a write failed: the disk is full");
  }
  throw std::runtime_error("wrote 800 GiB and nothing stopped it");
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
