#pragma once
// Each grading works in its own folder under the submission's work folder
// (<work>/gradings/g-<host>-<pid>-<random>), so two gradings of one submission never
// share runs, fresh data or probes; the folder is removed when the grading ends.
#include <filesystem>
#include <string>

namespace parlab::grader {

// A new folder name for this process's grading.
std::string grading_folder_name();

// Removes the folders in `gradings_dir` left by gradings on this host whose process
// is gone (killed before it could clean up), except `keep`.
void remove_abandoned_gradings(const std::filesystem::path& gradings_dir,
                               const std::filesystem::path& keep);

}  // namespace parlab::grader
