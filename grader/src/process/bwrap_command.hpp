#pragma once
// The bubblewrap command line for one run: a fresh root where only the system
// directories (read-only), the paths of the sandbox view and the work dir exist,
// with no network and its own pid namespace. Everything else of the host (the
// rest of the source tree, reference solutions, hidden datasets) is not there.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace parlab::grader::process {

// bwrap's own processes (its monitor and the sandbox's init) run as the same
// user as the program and count against RLIMIT_NPROC like its own.
inline constexpr std::size_t kBubblewrapHelperProcesses = 2;

// A top-level system directory as it is on this host: a real directory (bound
// read-only) or a symlink such as /lib -> usr/lib (recreated as the same link).
struct SystemDir {
  std::string path;  // "/usr"
  bool is_symlink = false;
  std::string symlink_target;  // "usr/lib"
};

// /usr, /bin, /sbin, /lib, /lib32, /lib64, /libx32 and /etc, those that exist here.
std::vector<SystemDir> inspect_system_dirs();

// GPU device nodes (/dev/nvidia*), so CUDA programs work inside the sandbox's
// otherwise minimal /dev. Empty on machines without an NVIDIA driver.
std::vector<std::string> find_gpu_device_nodes();

struct BwrapLayout {
  std::vector<SystemDir> system_dirs;
  std::vector<std::string> device_nodes;
  // Absolute paths, bound at the same place inside. The caller resolves symlinks
  // first (bubblewrap binds what a path points to, at the path's own name).
  std::vector<std::filesystem::path> read_only;
  std::vector<std::filesystem::path> read_write;
  // Bound read-write (if no read_write path covers it) and made the current
  // directory. Empty: neither.
  std::filesystem::path work_dir;
  // The program as it will be invoked, and the file it resolves to. Bound
  // read-only where no other mount makes it visible, so the program can always
  // be found (only the file: put its directory in read_only for libraries next
  // to it). Empty: nothing added.
  std::filesystem::path executable;
  std::filesystem::path executable_target;
  int status_fd = -1;  // --json-status-fd; -1: none
  // Size of the private /tmp (memory-backed, so it must be bounded); 0: tmpfs default.
  std::uint64_t tmp_size_bytes = 0;
};

// bwrap's options, ending with "--"; the program and its arguments follow.
// Mounts are ordered parents first, so a view path inside /tmp or inside another
// view path is mounted on top of it rather than hidden by it. The sandbox's root
// (and the mount-point directories bwrap creates in it) is then made read-only:
// outside the work dir, the read-write view paths and /tmp nothing is writable.
std::vector<std::string> bubblewrap_arguments(const BwrapLayout& layout);

// bwrap always sets PWD in the sandbox (to its --chdir dir). To give the program
// exactly the requested environment it is started through env(1), which removes
// PWD again, or sets the requested value: {"/usr/bin/env", "-u", "PWD", program}.
// Just {program} when env(1) cannot be used (`env_program` empty, or a program
// path holding '=', which env would read as an assignment).
std::vector<std::string> command_with_requested_pwd(const std::filesystem::path& env_program,
                                                    const std::filesystem::path& program,
                                                    const std::optional<std::string>& pwd);

// True when `path` is `dir` or inside it (lexically; both absolute and normal).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& dir);

}  // namespace parlab::grader::process
