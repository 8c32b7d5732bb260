// The runtime's lock (config/runtime_lock), tried in a forked child the way a submission
// would: once locked, the settings page cannot be written, re-protected, remapped or
// unmapped, /proc/self/mem cannot be opened for writing, and nothing can be exec'd but
// the helper at the sealed page's own address; other files stay writable. What the
// start-up decides besides the settings lives on that page too: the report's key and the
// process that took it (report/sealed_channel), the program's code range (fault reports).
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <string>

#include "config/code_seal.hpp"
#include "config/locked_state.hpp"
#include "config/program_code.hpp"
#include "config/runtime_lock.hpp"
#include "fault/code_offset.hpp"
#include "parlab_sim/settings_descriptor.hpp"

using parlab_sim::detail::g_locked;

namespace {

// What the child found possible, one bit per way in; 0: every way refused.
int attempt_everything_once_locked(const std::string& scratch_file) {
  std::strcpy(g_locked.helper_path, "/bin/true");
  std::string problem;
  if (!parlab_sim::detail::lock_runtime(problem)) return 128;
  int open_ways = 0;
  void* page = &g_locked;
  if (::mprotect(page, sizeof g_locked, PROT_READ | PROT_WRITE) == 0) open_ways |= 1;
  if (::mmap(page, sizeof g_locked, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
      MAP_FAILED)
    open_ways |= 2;
  if (::munmap(page, sizeof g_locked) == 0) open_ways |= 4;
  if (::open("/proc/self/mem", O_RDWR | O_CLOEXEC) >= 0) open_ways |= 8;
  // Another program (exits 1, should it run) at another address than the helper's.
  char other_path[] = "/bin/false";
  char* argv[] = {other_path, nullptr};
  ::execve(other_path, argv, environ);
  if (errno != EPERM) open_ways |= 16;
  const int file = ::open(scratch_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (file < 0) open_ways |= 32;  // the opposite: an ordinary file must stay writable
  if (open_ways != 0) return open_ways;
  ::execve(g_locked.helper_path, argv, environ);  // the helper: exits 0 when it runs
  return 64;
}

// What the child could do to the report channel once locked, one bit per way; 0: it stayed.
int attempt_to_move_the_report_channel() {
  int ends[2];
  if (::pipe(ends) != 0 || ::dup2(ends[1], parlab_sim::kReportDescriptor) < 0) return 128;
  std::string problem;
  if (!parlab_sim::detail::lock_runtime(problem)) return 128;
  const int fd = parlab_sim::kReportDescriptor;
  int open_ways = 0;
  if (::close(fd) == 0 || errno != EPERM) open_ways |= 1;
  if (::dup2(ends[0], fd) >= 0) open_ways |= 2;
  if (::dup3(ends[0], fd, O_CLOEXEC) >= 0) open_ways |= 4;
  if (::syscall(SYS_close_range, 3U, ~0U, 0U) == 0) open_ways |= 8;
  if (::syscall(SYS_close_range, static_cast<unsigned>(fd), static_cast<unsigned>(fd), 0U) == 0) open_ways |= 8;
  // The opposite: other descriptors close as ever, and ranges that leave it out too.
  if (::close(ends[1]) != 0) open_ways |= 16;
  if (::syscall(SYS_close_range, static_cast<unsigned>(fd) + 1, ~0U, 0U) != 0) open_ways |= 32;
  if (::write(fd, "x", 1) != 1) open_ways |= 64;  // still the channel, and writable
  return open_ways;
}

// Locks, then writes one field of the locked page the way a submission that found it
// would: the write must kill the process (SIGSEGV), never return.
template <typename Write>
int write_after_lock(Write write) {
  std::signal(SIGSEGV, SIG_DFL);  // the test framework's handler would report it as a failure
  std::string problem;
  if (!parlab_sim::detail::lock_runtime(problem)) return 128;
  write();
  return 0;  // written: the page was not locked
}

// How a child that wrote after the lock ended: the signal that stopped it, or -exit code.
template <typename Write>
int end_of_write_after_lock(Write write) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(write_after_lock(write));
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return WIFSIGNALED(status) ? WTERMSIG(status) : -WEXITSTATUS(status);
}

int function_of_this_program() { return 7; }

// A pointer the loader relocates into read-only data (RELRO), as a vtable or a GOT entry.
pid_t (*const g_relocated_pointer)() = &::getpid;

void* page_of(const void* address) {
  return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(address) & ~std::uintptr_t{4095});
}

bool sealed_range_holds(const void* address) {
  const auto at = reinterpret_cast<unsigned long>(address);
  for (const auto& range : parlab_sim::detail::read_only_ranges_of_loaded_objects())
    if (range.begin <= at && at < range.end) return true;
  return false;
}

// What the child could do to code once locked, one bit per way in; 0: every way refused.
int attempt_to_patch_code_once_locked() {
  std::string problem;
  if (!parlab_sim::detail::lock_runtime(problem)) return 255;
  int open_ways = 0;
  void* own = page_of(reinterpret_cast<const void*>(&function_of_this_program));
  void* libc = page_of(reinterpret_cast<const void*>(&::getpid));
  void* relro = page_of(&g_relocated_pointer);
  if (::mprotect(own, 4096, PROT_READ | PROT_WRITE) == 0) open_ways |= 1;
  if (::mprotect(libc, 4096, PROT_READ | PROT_WRITE) == 0) open_ways |= 2;
  if (::mprotect(relro, 4096, PROT_READ | PROT_WRITE) == 0) open_ways |= 4;
  if (::mmap(own, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
      MAP_FAILED)
    open_ways |= 8;
  if (::munmap(libc, 4096) == 0) open_ways |= 16;
  // Fresh memory cannot be made code either (the filter: where a kernel has no mseal, a
  // code page made writable stays unexecutable).
  void* fresh = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (fresh == MAP_FAILED) return 255;
  if (::mprotect(fresh, 4096, PROT_READ | PROT_EXEC) == 0) open_ways |= 32;
  if (::syscall(SYS_pkey_mprotect, fresh, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, -1) == 0) open_ways |= 32;
  // No filter of its own (SECCOMP_RET_TRAP on the report's sends would let it rewrite
  // them) and no userfaultfd.
  sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  sock_fprog program{1, &allow};
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0 || errno != EPERM) open_ways |= 128;
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0 || errno != EPERM) open_ways |= 128;
  if (::syscall(SYS_userfaultfd, O_CLOEXEC) >= 0 || errno != EPERM) open_ways |= 128;
  // The opposite: data is re-protected as ever (malloc's arenas and the fibers' guard
  // pages need it), and the code still runs.
  if (::mprotect(fresh, 4096, PROT_READ) != 0 || ::mprotect(fresh, 4096, PROT_NONE) != 0) open_ways |= 64;
  if (function_of_this_program() != 7 || g_relocated_pointer() != ::getpid()) open_ways |= 64;
  return open_ways;
}

}  // namespace

TEST_CASE("the start-up looks up the program's code range into the locked page", "[sim][lock]") {
  // The runtime's start-up ran before main: the range is there, and it is this program's.
  const auto& code = g_locked.program_code;
  REQUIRE(code.looked);
  REQUIRE(code.begin < code.end);
  CHECK(parlab_sim::detail::in_program_code(reinterpret_cast<std::uintptr_t>(&function_of_this_program)));
  CHECK_FALSE(parlab_sim::detail::in_program_code(reinterpret_cast<std::uintptr_t>(&::getpid)));  // libc's
  CHECK_FALSE(parlab_sim::detail::in_program_code(0));
  // Looked up once: a later call changes nothing (and after a lock could not).
  const auto before = code.end;
  parlab_sim::detail::look_up_program_code_once();
  CHECK(code.end == before);
}

TEST_CASE("a locked runtime's report identity and code range cannot be written", "[sim][lock]") {
  auto& locked = g_locked;
  // Marking a forked child as the process the grader started (its stop record would then
  // count as the run's), turning the seal off, or moving the code range: each write faults.
  CHECK(end_of_write_after_lock([&] { locked.report.loader_pid = ::getpid() + 1; }) == SIGSEGV);
  CHECK(end_of_write_after_lock([&] { locked.report.keyed = !locked.report.keyed; }) == SIGSEGV);
  CHECK(end_of_write_after_lock([&] { locked.report.key[0] ^= 1; }) == SIGSEGV);
  CHECK(end_of_write_after_lock([&] { locked.program_code.end = 0; }) == SIGSEGV);
  // The control: without the lock the same write goes through (the child exits 0).
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    locked.program_code.end = 0;
    ::_exit(locked.program_code.end == 0 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

TEST_CASE("a locked runtime's report channel cannot be closed or replaced", "[sim][lock]") {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(attempt_to_move_the_report_channel());
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  // Bits: 1 close, 2 dup2, 4 dup3, 8 a close_range over it, 16 another close refused,
  // 32 a close_range past it refused, 64 the channel no longer written, 128 set-up failed.
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a locked runtime's state is out of the process's own reach", "[sim][lock]") {
  const std::string scratch = "/tmp/parlab-lock-test-" + std::to_string(::getpid());
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(attempt_everything_once_locked(scratch));
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  ::unlink(scratch.c_str());
  REQUIRE(WIFEXITED(status));
  // 0: the helper ran after every other way was refused (bits: 1 mprotect, 2 MAP_FIXED,
  // 4 munmap, 8 /proc/self/mem, 16 another execve, 32 an ordinary file unwritable,
  // 64 the helper refused, 128 the lock failed).
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a locked runtime's code, and every loaded library's, cannot be patched or its calls trapped", "[sim][lock]") {
  // What is sealed: this program's code, libc's, and the data the loader made read-only.
  CHECK(sealed_range_holds(reinterpret_cast<const void*>(&function_of_this_program)));
  CHECK(sealed_range_holds(reinterpret_cast<const void*>(&::getpid)));
  CHECK(sealed_range_holds(&g_relocated_pointer));
  int on_the_stack = 0;
  CHECK_FALSE(sealed_range_holds(&on_the_stack));
  CHECK_FALSE(sealed_range_holds(&g_locked));  // writable data: sealed by the lock's own step
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(attempt_to_patch_code_once_locked());
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));  // a signal: some way in went through and broke the code
  // Bits: 1 own code made writable, 2 libc's, 4 RELRO data, 8 a mapping over code,
  // 16 code unmapped, 32 fresh memory made code, 64 data no longer re-protectable or
  // the code broken, 128 a filter of its own or a userfaultfd, 255 set-up failed.
  CHECK(WEXITSTATUS(status) == 0);
  // The control: without the lock, the same code page is made writable (and back).
  const pid_t unlocked = ::fork();
  REQUIRE(unlocked >= 0);
  if (unlocked == 0) {
    void* own = page_of(reinterpret_cast<const void*>(&function_of_this_program));
    ::_exit(::mprotect(own, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) == 0 ? 0 : 1);
  }
  REQUIRE(::waitpid(unlocked, &status, 0) == unlocked);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}
