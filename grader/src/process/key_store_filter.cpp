#include "process/key_store_filter.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>

namespace parlab::grader::process {
namespace {

// The three system calls' numbers for one calling convention.
struct KeyCalls {
  unsigned arch, add_key, request_key, keyctl;
};

// A process may call the kernel in the 32-bit convention too (int 0x80 on x86-64):
// its numbers are refused as well. x32's calls are x86-64's numbers with a high bit.
#if defined(__x86_64__)
constexpr KeyCalls kNative{AUDIT_ARCH_X86_64, __NR_add_key, __NR_request_key, __NR_keyctl};
constexpr KeyCalls kCompat{AUDIT_ARCH_I386, 286, 287, 288};
constexpr unsigned kNumberMask = ~0x40000000u;
#define PARLAB_KEY_FILTER 1
#elif defined(__aarch64__)
constexpr KeyCalls kNative{AUDIT_ARCH_AARCH64, __NR_add_key, __NR_request_key, __NR_keyctl};
constexpr KeyCalls kCompat{AUDIT_ARCH_ARM, 309, 310, 311};
constexpr unsigned kNumberMask = ~0u;
#define PARLAB_KEY_FILTER 1
#endif

#ifdef PARLAB_KEY_FILTER
constexpr unsigned kArch = offsetof(seccomp_data, arch);
constexpr unsigned kNumber = offsetof(seccomp_data, nr);
constexpr unsigned kRefuse = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);

// Jumps count instructions after the next one: 12 allows, 13 refuses.
constexpr sock_filter kProgram[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArch),                                  // 0
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kNative.arch, 0, 5),                    // 1: else 7
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNumber),                                // 2
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, kNumberMask),                           // 3
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kNative.add_key, 8, 0),                 // 4
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kNative.request_key, 7, 0),             // 5
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kNative.keyctl, 6, 5),                  // 6
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kCompat.arch, 0, 4),                    // 7: else 12
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNumber),                                // 8
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kCompat.add_key, 3, 0),                 // 9
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kCompat.request_key, 2, 0),             // 10
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kCompat.keyctl, 1, 0),                  // 11
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),                               // 12
    BPF_STMT(BPF_RET | BPF_K, kRefuse),                                         // 13
};
#endif

}  // namespace

bool close_key_store() noexcept {
#ifdef PARLAB_KEY_FILTER
  sock_fprog program{static_cast<unsigned short>(sizeof kProgram / sizeof kProgram[0]),
                     const_cast<sock_filter*>(kProgram)};
  return ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0;
#else
  errno = ENOSYS;
  return false;
#endif
}

}  // namespace parlab::grader::process
