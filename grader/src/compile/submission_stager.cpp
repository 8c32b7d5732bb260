#include "compile/submission_stager.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "compile/staging_helper.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

using namespace staging;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}


void read_exact(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw_errno("reading from the staging helper");
    if (r == 0) throw std::system_error(EPIPE, std::generic_category(), "staging helper stopped early");
    p += r;
    n -= static_cast<std::size_t>(r);
  }
}

std::string file_type_words(std::int32_t type) {
  switch (type) {
    case S_IFIFO: return "a FIFO (named pipe)";
    case S_IFDIR: return "a directory";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return "not a regular file";
  }
}

std::string mib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

std::string refusal(const std::string& name, const Record& r, const StagingLimits& limits) {
  switch (r.kind) {
    case Kind::missing: return name + " not found";
    case Kind::symlink:
      return name + " is a symbolic link; submit the file itself (links are not followed)";
    case Kind::not_regular:
      return name + " is " + file_type_words(r.detail) + ", not a regular file; submit the file itself";
    case Kind::too_big:
      return name + " is larger than the " + mib(limits.max_file_bytes) +
             " allowed for one submitted file (" + mib(r.size) + ")";
    case Kind::unreadable:
      return name + " cannot be read with the permissions of the submission folder's owner (" +
             std::strerror(r.detail) + ")";
    case Kind::no_privileges:
      return "the grader could not take the submission folder owner's identity to read it (" +
             std::string(std::strerror(r.detail)) + ")";
    case Kind::ok:
    // The walk's records never describe one file read; a reader that sends one is broken.
    case Kind::entry:
    case Kind::folder_link:
    case Kind::too_many:
    case Kind::walk_end:
      break;
  }
  return name + ": unexpected staging state";
}

void write_staged(const fs::path& file, const std::string& bytes) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("creating " + file.string());
  const bool written = write_all(fd, bytes.data(), bytes.size());
  ::close(fd);
  if (!written) throw_errno("writing " + file.string());
}

// Runs `body(write_end)` in a forked helper (which must _exit); returns its pid and
// the read end in `in`.
template <class Body>
pid_t start_helper(int* in, Body body) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw_errno("pipe");
  const pid_t helper = ::fork();
  if (helper < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw_errno("fork");
  }
  if (helper == 0) {
    ::close(pipe_fds[0]);
    body(pipe_fds[1]);
  }
  ::close(pipe_fds[1]);
  *in = pipe_fds[0];
  return helper;
}

void finish_helper(int in, pid_t helper) {
  ::close(in);  // the helper sees EPIPE if it is still writing
  int status = 0;
  while (::waitpid(helper, &status, 0) < 0 && errno == EINTR) {
  }
}

struct Found {
  std::string path;
  int depth = 0;
};

struct WalkResult {
  std::vector<Found> entries;
  std::vector<std::string> folder_links;
  std::string too_many_at;  // where the walk stopped, when it did
  bool no_privileges = false;
  std::int32_t error = 0;
};

WalkResult walk_submission(int dir, const struct stat& owner, const StagingLimits& limits) {
  WalkResult found;
  int in = -1;
  const int max_depth = std::clamp(limits.max_depth + 1, 0, kMaxWalkDepth);
  const pid_t helper = start_helper(&in, [&](int out) {
    walk_main(out, dir, owner.st_uid, owner.st_gid, max_depth, limits.max_walk_entries);
  });
  try {
    for (;;) {
      Record r{};
      read_exact(in, &r, sizeof r);
      if (r.kind == Kind::walk_end) break;
      if (r.kind == Kind::no_privileges) {
        found.no_privileges = true;
        found.error = r.detail;
        break;
      }
      std::uint32_t length = 0;
      read_exact(in, &length, sizeof length);
      if (length > kMaxPathBytes) throw std::runtime_error("staging helper: bad path");
      std::string path(length, '\0');
      read_exact(in, path.data(), length);
      if (r.kind == Kind::entry) {
        found.entries.push_back({path, r.detail});
      } else if (r.kind == Kind::folder_link) {
        found.folder_links.push_back(path);
      } else if (r.kind == Kind::too_many) {
        found.too_many_at = path;
        break;
      } else {
        throw std::runtime_error("staging helper: bad walk record");
      }
    }
  } catch (...) {
    finish_helper(in, helper);
    throw;
  }
  finish_helper(in, helper);
  std::sort(found.entries.begin(), found.entries.end(),
            [](const Found& a, const Found& b) { return a.path < b.path; });
  std::sort(found.folder_links.begin(), found.folder_links.end());
  return found;
}

// The optional files to stage, or a refusal in `result`.
std::vector<std::string> optional_names(const WalkResult& found, const std::vector<std::string>& required,
                                        bool (*want_optional)(const std::string&),
                                        const StagingLimits& limits, StagingResult& result) {
  std::vector<std::string> names;
  auto refuse = [&](const std::string& file, const std::string& reason) {
    result.refused_file = file;
    result.reason = reason;
    return std::vector<std::string>{};
  };
  if (!found.too_many_at.empty()) {
    return refuse(found.too_many_at,
                  "the submission folder holds more than " + std::to_string(limits.max_walk_entries) +
                      " files and folders (counted up to " + found.too_many_at +
                      "); its sub-folders are searched for headers: remove build outputs and "
                      "other files the build does not need");
  }
  if (!found.folder_links.empty()) {
    const std::string& link = found.folder_links.front();
    return refuse(link, link + " is a symbolic link to a folder; submit the folder itself " +
                            "(links are not followed)");
  }
  int in_subfolders = 0;
  for (const Found& f : found.entries) {
    if (!want_optional(f.path)) continue;
    if (f.depth == 0 && std::find(required.begin(), required.end(), f.path) != required.end()) continue;
    if (f.depth > limits.max_depth) {
      return refuse(f.path, f.path + " is nested deeper than the " + std::to_string(limits.max_depth) +
                                " sub-folder levels a submission's headers may use; move it up");
    }
    if (f.depth > 0 && ++in_subfolders > limits.max_subfolder_files) {
      return refuse(f.path, "the submission has more than " + std::to_string(limits.max_subfolder_files) +
                                " headers in sub-folders (reached at " + f.path +
                                "); remove the ones the build does not need");
    }
    names.push_back(f.path);
  }
  return names;
}

// The files to stage: the required sources, then the optional files the walk found
// (a refusal goes into `result`). The caller owns `dir`.
std::vector<std::string> names_to_stage(int dir, const struct stat& owner, const fs::path& submission,
                                        const std::vector<std::string>& required,
                                        bool (*want_optional)(const std::string& name),
                                        const StagingLimits& limits, StagingResult& result) {
  std::vector<std::string> names = required;
  const WalkResult found = walk_submission(dir, owner, limits);
  if (found.no_privileges) {
    result.refused_file = submission.string();
    result.reason = refusal(submission.string(), Record{Kind::no_privileges, found.error, 0}, limits);
    return names;
  }
  for (std::string& name : optional_names(found, required, want_optional, limits, result)) {
    names.push_back(name);
  }
  return names;
}

// One file's bytes from the helper's pipe: chunks until an empty one.
std::string read_chunks(int in) {
  std::string bytes;
  for (;;) {
    std::uint32_t length = 0;
    read_exact(in, &length, sizeof length);
    if (length == 0) return bytes;
    if (length > kChunkBytes) throw std::runtime_error("staging helper: bad chunk");
    const std::size_t at = bytes.size();
    bytes.resize(at + length);
    read_exact(in, bytes.data() + at, length);
  }
}

// Each file the helper sends, written into the stage, until the first refusal.
void receive_files(int in, const std::vector<std::string>& names,
                   const std::vector<std::string>& required, const fs::path& submission,
                   const fs::path& stage, const StagingLimits& limits, StagingResult& result) {
  std::uint64_t total = 0;
  for (const std::string& name : names) {
    Record r{};
    read_exact(in, &r, sizeof r);
    if (r.kind != Kind::ok) {
      result.refused_file = r.kind == Kind::no_privileges ? submission.string() : name;
      result.reason = refusal(name, r, limits);
      result.missing = r.kind == Kind::missing &&
                       std::find(required.begin(), required.end(), name) != required.end();
      return;
    }
    const std::string bytes = read_chunks(in);
    read_exact(in, &r, sizeof r);
    if (r.kind != Kind::ok) {
      result.refused_file = name;
      result.reason = refusal(name, r, limits);
      return;
    }
    total += bytes.size();
    if (total > limits.max_total_bytes) {
      result.refused_file = name;
      result.reason = "the submission's files together are larger than the " +
                      mib(limits.max_total_bytes) + " allowed (reached at " + name + ")";
      return;
    }
    if (name.find('/') != std::string::npos) fs::create_directories((stage / name).parent_path());
    write_staged(stage / name, bytes);
    result.staged.push_back(name);
  }
}

}  // namespace

StagingResult stage_submission_files(const fs::path& submission,
                                     const std::vector<std::string>& required,
                                     bool (*want_optional)(const std::string& name),
                                     const fs::path& stage, const StagingLimits& limits) {
  StagingResult result;
  fs::remove_all(stage);
  fs::create_directories(stage);

  int dir = ::open(submission.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) {
    result.refused_file = submission.filename().string();
    result.reason = "cannot open the submission folder " + submission.string() + " (" +
                    std::strerror(errno) + ")";
    return result;
  }
  struct stat owner {};
  if (::fstat(dir, &owner) != 0) {
    ::close(dir);
    throw_errno("stat " + submission.string());
  }
  std::vector<std::string> names;
  try {
    names = names_to_stage(dir, owner, submission, required, want_optional, limits, result);
  } catch (...) {
    ::close(dir);
    throw;
  }
  if (!result.ok()) {
    ::close(dir);
    return result;
  }
  std::vector<const char*> c_names;
  for (const std::string& name : names) c_names.push_back(name.c_str());

  int in = -1;
  pid_t helper = -1;
  try {
    helper = start_helper(&in, [&](int out) {
      read_main(out, dir, owner.st_uid, owner.st_gid, c_names, limits.max_file_bytes);
    });
  } catch (...) {
    ::close(dir);
    throw;
  }
  ::close(dir);
  try {
    receive_files(in, names, required, submission, stage, limits, result);
  } catch (...) {
    finish_helper(in, helper);
    throw;
  }
  finish_helper(in, helper);
  return result;
}

}  // namespace parlab::grader
