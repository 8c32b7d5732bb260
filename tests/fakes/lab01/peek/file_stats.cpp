// Fake submission (tests/fakes/lab01/peek): looks for answers instead of computing
// them. From its run folder (WORK/runs/TEST) it walks this grading's reference-runs
// folder and every other grading's folder of the lab (WORK/..), reads every file it
// can, and then fails on purpose with "PEEK: read N files: ..." or "PEEK: found
// nothing readable" as its message, which the e2e test looks for in the report.
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {

namespace fs = std::filesystem;

void read_all_under(const fs::path& root, const fs::path& own_runs, std::vector<std::string>& read) {
  std::error_code error;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const fs::path path = it->path();
    if (path.string().rfind(own_runs.string(), 0) == 0) continue;  // our own files
    std::error_code type_error;
    if (!fs::is_regular_file(path, type_error)) continue;
    std::ifstream in(path);
    char byte;
    if (in && in.get(byte)) read.push_back(path.filename().string());
  }
}

}  // namespace

FileStats compute_file_stats(const std::string&) {
  const fs::path own_runs = fs::current_path().parent_path();  // WORK/runs
  const fs::path grading = own_runs.parent_path();              // WORK
  std::vector<std::string> read;
  read_all_under(grading / "reference-runs", own_runs, read);
  read_all_under(grading.parent_path(), grading, read);  // other gradings of this lab
  if (read.empty()) throw std::runtime_error("PEEK: found nothing readable");
  std::string names;
  for (std::size_t i = 0; i < read.size() && i < 5; ++i) names += " " + read[i];
  throw std::runtime_error("PEEK: read " + std::to_string(read.size()) + " files:" + names);
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
