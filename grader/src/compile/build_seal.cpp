#include "compile/build_seal.hpp"

#include <fcntl.h>
#include <nettle/sha2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

constexpr int kMaxDepth = 64;

[[noreturn]] void cannot_freeze(const fs::path& path) {
  throw EnvironmentError("cannot make the build " + path.string() + " the grader's (" + std::strerror(errno) +
                         "); a run could replace what a later grading reuses");
}

// Through a descriptor of the parent, without following a link: a link the compile
// left must not make root change its target.
void freeze_entry(int parent, const char* name, const fs::path& path) {
  struct stat info {};
  if (::fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) != 0) cannot_freeze(path);
  if (::fchownat(parent, name, ::geteuid(), ::getegid(), AT_SYMLINK_NOFOLLOW) != 0) cannot_freeze(path);
  if (S_ISLNK(info.st_mode)) return;  // a link's own mode means nothing
  const mode_t mode = info.st_mode & 07755 & ~static_cast<mode_t>(S_ISUID | S_ISGID);
  if (::fchmodat(parent, name, mode, 0) != 0) cannot_freeze(path);
}

void freeze_folder(const fs::path& dir, int depth) {
  if (depth > kMaxDepth) return;
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) cannot_freeze(dir);
  for (const std::string& name : names) {
    freeze_entry(fd, name.c_str(), dir / name);
    struct stat info {};
    if (::fstatat(fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(info.st_mode))
      freeze_folder(dir / name, depth + 1);
  }
  ::close(fd);
}

bool graders_and_closed(const fs::path& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 && !S_ISLNK(info.st_mode) && info.st_uid == ::geteuid() &&
         (info.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

}  // namespace

void freeze_build(const fs::path& build_dir) {
  if (::geteuid() != 0) return;
  const fs::path parent = build_dir.parent_path();
  const int fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) cannot_freeze(parent);
  freeze_entry(fd, build_dir.filename().c_str(), build_dir);
  ::close(fd);
  freeze_folder(build_dir, 0);
}

namespace {

constexpr const char* kHex = "0123456789abcdef";

std::string hex_of(sha256_ctx& ctx) {
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  std::string hex;
  for (std::uint8_t b : digest) hex += {kHex[b >> 4], kHex[b & 15]};
  return hex;
}

bool add_file(sha256_ctx& ctx, const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  std::vector<std::uint8_t> buffer(1 << 16);
  ssize_t n = 0;
  while ((n = ::read(fd, buffer.data(), buffer.size())) > 0) sha256_update(&ctx, static_cast<size_t>(n), buffer.data());
  ::close(fd);
  return n == 0;
}

}  // namespace

std::string executable_digest(const fs::path& exe) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  return add_file(ctx, exe) ? hex_of(ctx) : "";
}

std::string build_digest(const fs::path& build_dir, const fs::path& key_file) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(build_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it.depth() > kMaxDepth) it.disable_recursion_pending();
    if (it->symlink_status(ec).type() == fs::file_type::regular && it->path() != key_file) files.push_back(it->path());
  }
  if (ec) return "";
  std::sort(files.begin(), files.end());
  sha256_ctx ctx;
  sha256_init(&ctx);
  for (const fs::path& file : files) {
    const std::string name = file.lexically_relative(build_dir).string() + '\0';
    sha256_update(&ctx, name.size(), reinterpret_cast<const std::uint8_t*>(name.data()));
    if (!add_file(ctx, file)) return "";
  }
  return hex_of(ctx);
}

bool build_intact(const fs::path& build_dir, const fs::path& exe, const fs::path& key_file,
                  const std::string& digest) {
  if (digest.empty() || build_digest(exe.parent_path(), key_file) != digest) return false;
  if (::geteuid() != 0) return true;
  for (fs::path p = exe;; p = p.parent_path()) {
    if (!graders_and_closed(p)) return false;
    if (p == build_dir || p == p.parent_path()) break;
  }
  return true;
}

}  // namespace parlab::grader
