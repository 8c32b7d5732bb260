#pragma once
// A fresh folder per test under the temp directory, removed when the test ends, with
// whatever the test made read-only inside it. Mode 0755, not mkdtemp's 0700: a child
// that dropped to another uid must still reach its work folder below it. One class for
// every area's tests (tests/unit/support is no grader area: no test lives here).
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <system_error>

namespace parlab::testing {

class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("parlab-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
    ::chmod(path_.c_str(), 0755);
  }
  ~ScratchDir() {
    namespace fs = std::filesystem;
    std::error_code ec;
    // A folder the test left without write permission would keep its files (non-root).
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::end(it); it.increment(ec))
      if (it->is_directory(ec) && !it->is_symlink(ec))
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace parlab::testing
