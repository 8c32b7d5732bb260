#include "process/bwrap_command.hpp"

#include <algorithm>
#include <set>
#include <system_error>
#include <utility>

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSystemDirs[] = {"/usr",   "/bin",   "/sbin",   "/lib",
                                       "/lib32", "/lib64", "/libx32", "/etc"};

struct Mount {
  std::vector<std::string> options;  // e.g. {"--ro-bind", "/usr", "/usr"}
  fs::path destination;
};

std::size_t depth(const fs::path& path) {
  std::size_t n = 0;
  for (const auto& part : path.relative_path()) {
    if (!part.empty()) ++n;
  }
  return n;
}

Mount bind(const char* option, const fs::path& path) {
  return Mount{{option, path.string(), path.string()}, path};
}

bool covered_by_any(const fs::path& path, const std::vector<fs::path>& dirs) {
  return std::any_of(dirs.begin(), dirs.end(),
                     [&](const fs::path& dir) { return is_within(path, dir); });
}

}  // namespace

bool is_within(const fs::path& path, const fs::path& dir) {
  fs::path relative = path.lexically_normal().lexically_relative(dir.lexically_normal());
  return !relative.empty() && *relative.begin() != "..";
}

std::vector<SystemDir> inspect_system_dirs() {
  std::vector<SystemDir> dirs;
  for (const char* path : kSystemDirs) {
    std::error_code error;
    fs::file_status status = fs::symlink_status(path, error);
    if (error) continue;
    if (fs::is_symlink(status)) {
      fs::path target = fs::read_symlink(path, error);
      if (!error) dirs.push_back(SystemDir{path, true, target.string()});
    } else if (fs::is_directory(status)) {
      dirs.push_back(SystemDir{path, false, ""});
    }
  }
  return dirs;
}

std::vector<std::string> find_gpu_device_nodes() {
  std::vector<std::string> nodes;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/dev", error)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("nvidia", 0) == 0) nodes.push_back(entry.path().string());
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

std::vector<std::string> bubblewrap_arguments(const BwrapLayout& layout) {
  std::vector<std::string> args = {
      "--unshare-all",      // no network, own pid/ipc/uts namespaces (user too when unprivileged)
      "--die-with-parent",  // the sandbox dies with the grader
      "--new-session",      // no controlling terminal to push keystrokes into
  };
  if (layout.status_fd >= 0) {
    args.push_back("--json-status-fd");
    args.push_back(std::to_string(layout.status_fd));
  }

  std::vector<Mount> mounts;
  std::vector<fs::path> visible;  // what a path can be found under
  for (const SystemDir& dir : layout.system_dirs) {
    if (dir.is_symlink) {
      mounts.push_back(Mount{{"--symlink", dir.symlink_target, dir.path}, dir.path});
    } else {
      mounts.push_back(bind("--ro-bind", dir.path));
      visible.emplace_back(dir.path);
    }
  }
  mounts.push_back(Mount{{"--proc", "/proc"}, "/proc"});
  mounts.push_back(Mount{{"--dev", "/dev"}, "/dev"});
  for (const std::string& node : layout.device_nodes) mounts.push_back(bind("--dev-bind", node));
  // The CUDA driver reads PCI topology from /sys; read-only, and only with a GPU.
  if (!layout.device_nodes.empty() && fs::is_directory("/sys")) {
    mounts.push_back(bind("--ro-bind", "/sys"));
  }
  Mount tmp{{"--tmpfs", "/tmp"}, "/tmp"};
  if (layout.tmp_size_bytes > 0)
    tmp.options.insert(tmp.options.begin(), {"--size", std::to_string(layout.tmp_size_bytes)});
  mounts.push_back(tmp);

  std::set<std::pair<std::string, fs::path>> seen;
  auto add_view = [&](const char* option, const fs::path& path) {
    if (!seen.insert({option, path}).second) return;
    mounts.push_back(bind(option, path));
    visible.push_back(path);
  };
  for (const fs::path& path : layout.read_only) add_view("--ro-bind", path);
  for (const fs::path& path : layout.read_write) add_view("--bind", path);
  if (!layout.work_dir.empty() && !covered_by_any(layout.work_dir, layout.read_write))
    add_view("--bind", layout.work_dir);
  if (!layout.executable.empty()) {
    const fs::path& target =
        layout.executable_target.empty() ? layout.executable : layout.executable_target;
    if (!covered_by_any(layout.executable, visible)) {
      // The file itself, under the name it is invoked by.
      mounts.push_back(Mount{{"--ro-bind", target.string(), layout.executable.string()},
                             layout.executable});
    } else if (!covered_by_any(target, visible)) {
      // The name is visible, but it is a symlink to a file outside: bind that too.
      mounts.push_back(bind("--ro-bind", target));
    }
  }

  // Parents before children; stable, so the order above breaks ties.
  std::stable_sort(mounts.begin(), mounts.end(), [](const Mount& a, const Mount& b) {
    return depth(a.destination) < depth(b.destination);
  });
  for (const Mount& mount : mounts)
    args.insert(args.end(), mount.options.begin(), mount.options.end());
  // Last: only the root tmpfs itself; mounts on top of it keep their own mode.
  args.push_back("--remount-ro");
  args.push_back("/");

  if (!layout.work_dir.empty()) {
    args.push_back("--chdir");
    args.push_back(layout.work_dir.string());
  }
  args.push_back("--");
  return args;
}

std::vector<std::string> command_with_requested_pwd(const fs::path& env_program,
                                                    const fs::path& program,
                                                    const std::optional<std::string>& pwd) {
  if (env_program.empty() || program.string().find('=') != std::string::npos)
    return {program.string()};
  if (pwd) return {env_program.string(), "PWD=" + *pwd, program.string()};
  return {env_program.string(), "-u", "PWD", program.string()};
}

}  // namespace parlab::grader::process
