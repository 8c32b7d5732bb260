#pragma once
// What is in a class folder: one folder or archive per student, or a Gradescope
// "Export Submissions" folder (submission_metadata.yml beside submission_<n>/ folders).
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader::batch {

enum class SourceKind { folder, archive, unsupported_archive };

struct SubmissionSource {
  std::string entry;            // name in the class folder: "alice.zip", "bob"
  std::string stem;             // "alice", "bob" (extensions dropped)
  std::filesystem::path path;
  SourceKind kind = SourceKind::folder;
};

struct ClassFolder {
  std::vector<SubmissionSource> sources;  // sorted by entry name
  std::vector<std::string> ignored;       // files that are no submission (README, .csv)
  bool gradescope_export = false;
};

// Throws UsageError when `dir` is not a readable folder.
ClassFolder discover_submissions(const std::filesystem::path& dir);

// "alice.tar.gz" -> "alice"; empty when the name has no archive extension.
std::string archive_stem(const std::string& file_name);

}  // namespace parlab::grader::batch
