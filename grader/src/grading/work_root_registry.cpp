#include "grading/work_root_registry.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

std::vector<fs::path> listed(const fs::path& registry) {
  std::vector<fs::path> roots;
  std::ifstream in(registry);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == '/') roots.emplace_back(line);
  }
  return roots;
}

}  // namespace

fs::path work_root_registry(const fs::path& build_dir) { return build_dir / "grader-work-roots"; }

std::vector<fs::path> registered_work_roots(const fs::path& registry) {
  std::vector<fs::path> roots;
  for (const fs::path& p : listed(registry)) {
    std::error_code ec;
    if (fs::symlink_status(p, ec).type() == fs::file_type::directory &&
        std::find(roots.begin(), roots.end(), p) == roots.end())
      roots.push_back(p);
  }
  return roots;
}

void register_work_root(const fs::path& registry, const fs::path& work_root) {
  fs::path root = fs::absolute(work_root).lexically_normal();
  if (!root.has_filename()) root = root.parent_path();  // "w/" is "w"
  const std::vector<fs::path> known = listed(registry);
  if (std::find(known.begin(), known.end(), root) != known.end()) return;
  const int fd = ::open(registry.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;
  const std::string line = root.string() + "\n";
  [[maybe_unused]] ssize_t n = ::write(fd, line.data(), line.size());
  ::close(fd);
}

}  // namespace parlab::grader
