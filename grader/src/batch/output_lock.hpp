#pragma once
// One writer per output folder (docs/batch.md "One writer per output folder"). A local
// batch, `--collect` and a `--slurm` submitter hold OUT/.batch.lock exclusively. The
// array tasks and the collect job of one Slurm submission hold it shared, together,
// plus a lock of their own submission (OUT/.batch.slurm-<stamp>.lock), so a task of any
// other submission, or any local batch, is refused while they run. Locks are flock(2):
// the kernel drops them when the holder dies, even by kill -9.
#include <filesystem>
#include <string>
#include <vector>

#include "process/unique_fd.hpp"

namespace parlab::grader::batch {

class OutputLock {
 public:
  OutputLock() = default;
  OutputLock(OutputLock&&) = default;
  OutputLock& operator=(OutputLock&&) = default;

 private:
  friend OutputLock lock_output_folder(const std::filesystem::path&, const std::string&);
  std::vector<process::UniqueFd> fds_;
};

// `slurm_submission` empty: exclusive; else shared with the other tasks of that
// submission (the stamp of OUT/slurm/<stamp>/). Throws UsageError naming the holder
// ("a grade batch, pid 123 on host h since ...", "Slurm submission <stamp>") when
// another writer has the folder.
OutputLock lock_output_folder(const std::filesystem::path& out, const std::string& slurm_submission);

// What a holder wrote into OUT/.batch.lock about itself, or "" (for messages).
std::string output_lock_holder(const std::filesystem::path& out);

}  // namespace parlab::grader::batch
