#include "config/runtime_lock.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "config/code_seal.hpp"
#include "config/locked_state.hpp"
#include "parlab_sim/settings_descriptor.hpp"

namespace parlab_sim::detail {
namespace {

bool failed(std::string& problem, const char* step) {
  problem = std::string(step) + ": " + std::strerror(errno);
  return false;
}

// A kernel without the call (ENOSYS; mseal is Linux 6.10, Landlock 5.13 and may be
// turned off) locks with what it has: failing every simulated run there would leave a
// student on an older kernel nothing to grade with. The grader notes the gap in the
// result (grading/kernel_lock_support), where an instructor sees it.
bool missing_from_kernel() { return errno == ENOSYS || errno == EOPNOTSUPP; }

bool seal_locked_page(std::string& problem) {
  if (::mprotect(&g_locked, sizeof g_locked, PROT_READ) != 0) return failed(problem, "mprotect of the settings page");
  if (mseal_pages(&g_locked, sizeof g_locked) != 0 && !missing_from_kernel())
    return failed(problem, "mseal of the settings page");
  return true;
}

// Landlock binds the calling thread and the threads it starts later: none may exist yet.
bool single_threaded(std::string& problem) {
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return failed(problem, "listing /proc/self/task");
  int threads = 0;
  while (const dirent* entry = ::readdir(tasks)) threads += entry->d_name[0] != '.' ? 1 : 0;
  ::closedir(tasks);
  if (threads == 1) return true;
  problem = "a thread was started before the lock";
  return false;
}

// Writes allowed beneath every top-level folder but /proc (Landlock grants, it cannot
// deny: so the grant is everything else).
bool forbid_proc_writes(std::string& problem) {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 1) return missing_from_kernel() || failed(problem, "Landlock");
  std::uint64_t write = LANDLOCK_ACCESS_FS_WRITE_FILE;
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
  if (abi >= 3) write |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
  landlock_ruleset_attr attributes{};
  attributes.handled_access_fs = write;
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0));
  if (ruleset < 0) return failed(problem, "Landlock ruleset");
  DIR* root = ::opendir("/");
  if (root == nullptr) return failed(problem, "listing /");
  while (const dirent* entry = ::readdir(root)) {
    const std::string_view name = entry->d_name;
    if (name == "." || name == ".." || name == "proc") continue;
    const int folder = ::openat(::dirfd(root), entry->d_name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (folder < 0) continue;  // a file or a link: its target folder has its own rule
    landlock_path_beneath_attr rule{};
    rule.allowed_access = write;
    rule.parent_fd = folder;
    const long added = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    ::close(folder);
    if (added != 0) {
      ::closedir(root);
      ::close(ruleset);
      return failed(problem, "Landlock rule");
    }
  }
  ::closedir(root);
  const bool restricted = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                          ::syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
  ::close(ruleset);
  return restricted || failed(problem, "Landlock restrict_self");
}

sock_filter statement(std::uint16_t code, std::uint32_t k) { return BPF_STMT(code, k); }
sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t yes, std::uint8_t no) {
  return BPF_JUMP(code, k, yes, no);
}

#if defined(__x86_64__)
constexpr std::uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
#error "runtime_lock: no seccomp architecture for this target"
#endif

constexpr std::uint32_t kRefuse = SECCOMP_RET_ERRNO | EPERM;

// The report pipe stays where the runtime writes: close(), dup2()/dup3() onto its number
// and a close_range() over it are refused. (The low 32 bits: the kernel reads these
// arguments as unsigned int.) Leaves the system call's number loaded.
void keep_report_descriptor(std::vector<sock_filter>& f) {
  constexpr std::uint32_t fd = kReportDescriptor;
  auto refuse_if_arg_is = [&](long nr, std::uint32_t arg) {
    f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(nr), 0, 4));
    f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]) + 8 * arg));
    f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, fd, 0, 1));
    f.push_back(statement(BPF_RET | BPF_K, kRefuse));
    f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  };
  refuse_if_arg_is(SYS_close, 0);
#ifdef SYS_dup2
  refuse_if_arg_is(SYS_dup2, 1);
#endif
  refuse_if_arg_is(SYS_dup3, 1);
  // close_range(first, last, flags): refused when first <= fd <= last.
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_close_range, 0, 6));
  f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  f.push_back(jump(BPF_JMP | BPF_JGT | BPF_K, fd, 3, 0));
  f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[1])));
  f.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, fd, 0, 1));
  f.push_back(statement(BPF_RET | BPF_K, kRefuse));
  f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
}

// execve is let through only with `helper` (an address in the sealed page) as its path.
std::vector<sock_filter> lock_filter(const void* helper) {
  const auto address = reinterpret_cast<std::uintptr_t>(helper);
  const auto low = static_cast<std::uint32_t>(address);
  const auto high = static_cast<std::uint32_t>(address >> 32);
  std::vector<sock_filter> f = {
      statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
      statement(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
  };
#if defined(__x86_64__)
  f.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));  // the x32 numbers
  f.push_back(statement(BPF_RET | BPF_K, kRefuse));
#endif
  // seccomp and userfaultfd too: a filter of the submission's own (SECCOMP_RET_TRAP) or a
  // fault handler would let it stop the runtime's sends and rewrite them before they
  // leave (the key found in memory would then seal a report without its races).
  for (const long nr : {SYS_execveat, SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev,
                        SYS_process_madvise, SYS_io_uring_setup, SYS_seccomp, SYS_userfaultfd}) {
    f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(nr), 0, 1));
    f.push_back(statement(BPF_RET | BPF_K, kRefuse));
  }
  // prctl(PR_SET_SECCOMP, ...): the older door to the same.
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 4));
  f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_SECCOMP, 0, 1));
  f.push_back(statement(BPF_RET | BPF_K, kRefuse));
  f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  // No code made or re-protected once locked: mprotect and pkey_mprotect asking for
  // PROT_EXEC are refused, so the runtime's hooks cannot be made writable and then
  // executable again, even where the kernel has no mseal to seal them (code_seal).
  for (const long nr : {SYS_mprotect, SYS_pkey_mprotect}) {
    f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(nr), 0, 4));
    f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[2])));
    f.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1));
    f.push_back(statement(BPF_RET | BPF_K, kRefuse));
    f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  }
  keep_report_descriptor(f);
  // execve: allowed only when args[0] is `helper` (both halves) and a helper was found.
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 1, 0));
  f.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  if (helper == nullptr) {
    f.push_back(statement(BPF_RET | BPF_K, kRefuse));
    return f;
  }
  f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, low, 1, 0));
  f.push_back(statement(BPF_RET | BPF_K, kRefuse));
  f.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]) + 4));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, high, 1, 0));
  f.push_back(statement(BPF_RET | BPF_K, kRefuse));
  f.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  return f;
}

bool install_filter(std::string& problem) {
  const void* helper = g_locked.helper_path[0] != '\0' ? g_locked.helper_path : nullptr;
  std::vector<sock_filter> filter = lock_filter(helper);
  sock_fprog program{static_cast<unsigned short>(filter.size()), filter.data()};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return failed(problem, "no_new_privs");
  // Every thread at once (TSYNC), should the runtime have started one already.
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0)
    return failed(problem, "seccomp filter");
  return true;
}

}  // namespace

bool lock_runtime(std::string& problem) {
  return single_threaded(problem) && seal_locked_page(problem) && seal_loaded_code(problem) &&
         forbid_proc_writes(problem) && install_filter(problem);
}

}  // namespace parlab_sim::detail
