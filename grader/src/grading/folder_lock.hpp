#pragma once
// An exclusive flock(2) on a file, held for the object's life: two gradings of one
// submission take turns building it. A wait is announced, never silent.
#include <filesystem>
#include <functional>
#include <string>

#include "process/unique_fd.hpp"

namespace parlab::grader {

class FolderLock {
 public:
  // Blocks until the lock on `lock_file` is ours; `notice` gets `why_waiting` first
  // when someone else holds it. Throws EnvironmentError when the file cannot be opened.
  FolderLock(const std::filesystem::path& lock_file,
             const std::function<void(const std::string&)>& notice, const std::string& why_waiting);

 private:
  process::UniqueFd fd_;
};

}  // namespace parlab::grader
