#include "grading/child_run_files.hpp"

#include <fcntl.h>

#include "parlab/harness/no_follow_read.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

using harness::DirFd;
using harness::UnsafeFileError;

// runs_root is the grader's (opened as a path); everything below it is the child's.
DirFd open_out_dir(const fs::path& runs_root, const std::string& run_name) {
  DirFd root(::open(runs_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root.valid()) throw UnsafeFileError("the run folder " + runs_root.string() + " is gone");
  DirFd run = harness::open_subdir_no_follow(root.get(), run_name);
  try {
    return harness::open_subdir_no_follow(run.get(), "out");
  } catch (const UnsafeFileError& e) {
    throw UnsafeFileError(std::string("the output ") + e.what());
  }
}

}  // namespace

ChildRunFiles::ChildRunFiles(fs::path runs_root, std::string run_name)
    : runs_root_(std::move(runs_root)), run_name_(std::move(run_name)) {}

ChildJson ChildRunFiles::read_json(const std::string& name, std::uint64_t max_bytes) const {
  ChildJson out;
  std::string text;
  try {
    DirFd dir = open_out_dir(runs_root_, run_name_);
    if (harness::inspect_file_at(dir.get(), name) == harness::FileKind::missing) {
      out.missing = true;
      out.problem = name + " is missing";
      return out;
    }
    text = harness::read_file_at(dir.get(), name, max_bytes);
  } catch (const UnsafeFileError& e) {
    out.problem = e.what();  // a link, a FIFO, too large, or no output folder at all
    return out;
  }
  try {
    out.value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    out.problem = name + " is not valid JSON (" + e.what() + ")";
  }
  return out;
}

std::optional<std::string> ChildRunFiles::read_text(const std::string& name,
                                                    std::uint64_t max_bytes) const {
  try {
    DirFd dir = open_out_dir(runs_root_, run_name_);
    if (harness::inspect_file_at(dir.get(), name) == harness::FileKind::missing) return {};
    return harness::read_file_at(dir.get(), name, max_bytes);
  } catch (const UnsafeFileError&) {
    return {};
  }
}

std::vector<harness::NamedArray> ChildRunFiles::outputs(std::uint64_t max_bytes) const {
  DirFd dir;
  try {
    dir = open_out_dir(runs_root_, run_name_);
  } catch (const UnsafeFileError& e) {
    throw harness::OutputFormatError(e.what());
  }
  return harness::read_outputs_at(dir.get(), max_bytes);
}

}  // namespace parlab::grader
