#include "process/syscall_filter.hpp"

#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

namespace parlab::grader::process {
namespace {

struct Built {
  std::optional<SyscallFilter> filter;
  std::optional<std::string> problem;
};

enum class Rules { key_store, fallback };

using Context = std::unique_ptr<void, void (*)(scmp_filter_ctx)>;

// The 32-bit conventions a process of this machine may also call the kernel in.
bool add_compat_architectures(scmp_filter_ctx ctx) {
#if defined(__x86_64__)
  return seccomp_arch_add(ctx, SCMP_ARCH_X86) == 0 && seccomp_arch_add(ctx, SCMP_ARCH_X32) == 0;
#elif defined(__aarch64__)
  return seccomp_arch_add(ctx, SCMP_ARCH_ARM) == 0;
#else
  (void)ctx;
  return true;
#endif
}

bool add_rules(scmp_filter_ctx ctx, Rules rules) {
  bool ok = true;
  for (int nr : {SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(keyctl)})
    ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) == 0;
  if (rules == Rules::key_store) return ok;
  for (int domain : {AF_INET, AF_INET6, AF_PACKET})
    ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(domain))) == 0;
  return ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(io_uring_setup), 0) == 0;
}

// libseccomp writes the BPF program to a descriptor; a memfd brings it back into memory
// so the child only has to hand it to the kernel.
std::optional<std::vector<sock_filter>> exported(scmp_filter_ctx ctx) {
  const int fd = ::memfd_create("parlab-seccomp", MFD_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::vector<sock_filter> program;
  if (seccomp_export_bpf(ctx, fd) == 0) {
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size > 0 && size % static_cast<off_t>(sizeof(sock_filter)) == 0) {
      program.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
      if (::pread(fd, program.data(), static_cast<std::size_t>(size), 0) != size) program.clear();
    }
  }
  ::close(fd);
  if (program.empty()) return std::nullopt;
  return program;
}

Built build(Rules rules) {
  Built built;
  Context ctx(seccomp_init(SCMP_ACT_ALLOW), seccomp_release);
  if (!ctx) {
    built.problem = "libseccomp could not start a filter";
    return built;
  }
  if (seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0 ||
      !add_compat_architectures(ctx.get()) || !add_rules(ctx.get(), rules)) {
    built.problem = "libseccomp refused a rule";
    return built;
  }
  std::optional<std::vector<sock_filter>> program = exported(ctx.get());
  if (!program) {
    built.problem = "libseccomp could not export the filter";
    return built;
  }
  built.filter.emplace();
  built.filter->instructions = std::move(*program);
  return built;
}

// Pointed at its instructions once they are in their final place.
void point(Built& built) {
  if (!built.filter) return;
  built.filter->program.len = static_cast<unsigned short>(built.filter->instructions.size());
  built.filter->program.filter = built.filter->instructions.data();
}

const Built& built_once(Rules rules) {
  static Built key_store = build(Rules::key_store);
  static Built fallback = build(Rules::fallback);
  static const bool pointed = (point(key_store), point(fallback), true);  // thread-safe init
  (void)pointed;
  return rules == Rules::key_store ? key_store : fallback;
}

}  // namespace

const SyscallFilter* key_store_filter() {
  const Built& b = built_once(Rules::key_store);
  return b.filter ? &*b.filter : nullptr;
}

const SyscallFilter* fallback_syscall_filter() {
  const Built& b = built_once(Rules::fallback);
  return b.filter ? &*b.filter : nullptr;
}

const std::optional<std::string>& fallback_filter_problem() { return built_once(Rules::fallback).problem; }

bool install_syscall_filter(const sock_fprog& program) noexcept {
  return ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0;
}

}  // namespace parlab::grader::process
