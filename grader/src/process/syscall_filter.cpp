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

using Context = std::unique_ptr<void, void (*)(scmp_filter_ctx)>;

bool add_rules(scmp_filter_ctx ctx) {
  bool ok = true;
  for (int domain : {AF_INET, AF_INET6, AF_PACKET})
    ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(domain))) == 0;
  for (int nr : {SCMP_SYS(io_uring_setup), SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(keyctl)})
    ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) == 0;
  return ok;
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

Built build() {
  Built built;
  Context ctx(seccomp_init(SCMP_ACT_ALLOW), seccomp_release);
  if (!ctx) {
    built.problem = "libseccomp could not start a filter";
    return built;
  }
  // Another architecture's system calls (int 0x80 on x86-64) would pass by the rules.
  if (seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0 || !add_rules(ctx.get())) {
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

const Built& built_once() {
  static Built built = build();
  // Pointed at its instructions once they are in their final place (thread-safe init).
  static const bool pointed = [] {
    if (built.filter) {
      built.filter->program.len = static_cast<unsigned short>(built.filter->instructions.size());
      built.filter->program.filter = built.filter->instructions.data();
    }
    return true;
  }();
  (void)pointed;
  return built;
}

}  // namespace

const SyscallFilter* fallback_syscall_filter() {
  const Built& b = built_once();
  return b.filter ? &*b.filter : nullptr;
}

const std::optional<std::string>& fallback_filter_problem() { return built_once().problem; }

bool install_syscall_filter(const sock_fprog& program) noexcept {
  return ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0;
}

}  // namespace parlab::grader::process
