// Reports what the sandbox set up, one "key=value" per line: its argv[0], user
// and groups, session and process group, resource limits, open descriptors,
// capabilities, no_new_privs, current directory, and whether stdin is empty.
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

namespace {

std::string limit_text(rlim_t value) {
  return value == RLIM_INFINITY ? "unlimited" : std::to_string(value);
}

void print_limit(const char* name, int resource) {
  rlimit limit{};
  ::getrlimit(static_cast<__rlimit_resource_t>(resource), &limit);
  std::cout << name << "=" << limit_text(limit.rlim_cur) << "/" << limit_text(limit.rlim_max)
            << "\n";
}

// Lines of /proc/self/status such as "CapEff:\t0000000000000000".
std::string status_field(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) {
      std::string value = line.substr(field.size() + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      return value;
    }
  }
  return "?";
}

}  // namespace

int main(int, char** argv) {
  std::cout << "argv0=" << argv[0] << "\n";
  std::cout << "uid=" << ::getuid() << "\neuid=" << ::geteuid() << "\ngid=" << ::getgid()
            << "\ngroups=" << ::getgroups(0, nullptr) << "\n";
  std::cout << "own_process_group=" << (::getpgrp() == ::getpid() ? "yes" : "no") << "\n";
  std::cout << "session_leader=" << (::getsid(0) == ::getpid() ? "yes" : "no") << "\n";
  print_limit("cpu", RLIMIT_CPU);
  print_limit("as", RLIMIT_AS);
  print_limit("fsize", RLIMIT_FSIZE);
  print_limit("nproc", RLIMIT_NPROC);
  print_limit("core", RLIMIT_CORE);

  std::string fds;
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    int own = ::dirfd(dir);
    while (dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] == '.' || std::atoi(entry->d_name) == own) continue;
      fds += (fds.empty() ? "" : ",") + std::string(entry->d_name);
    }
    ::closedir(dir);
  }
  std::cout << "fds=" << fds << "\n";
  std::cout << "cap_eff=" << status_field("CapEff") << "\n";
  std::cout << "no_new_privs=" << status_field("NoNewPrivs") << "\n";
  char cwd[4096];
  std::cout << "cwd=" << (::getcwd(cwd, sizeof cwd) ? cwd : "?") << "\n";
  char byte;
  std::cout << "stdin_bytes=" << ::read(0, &byte, 1) << "\n";
  return 0;
}
