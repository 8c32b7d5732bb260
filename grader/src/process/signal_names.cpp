#include "process/signal_names.hpp"

#include <csignal>

namespace parlab::grader::process {
namespace {

struct SignalInfo {
  int number;
  const char* name;
  const char* explanation;
};

// Our own table rather than strsignal(): fixed names in every locale, and words
// that point a student at the likely bug.
constexpr SignalInfo kSignals[] = {
    {SIGSEGV, "SIGSEGV",
     "segmentation fault: invalid memory access, e.g. a null or dangling pointer, "
     "or out-of-bounds index"},
    {SIGBUS, "SIGBUS",
     "bus error: invalid memory access, e.g. a misaligned pointer or reading past the "
     "end of a memory-mapped file"},
    {SIGABRT, "SIGABRT",
     "aborted: abort() was called, e.g. by a failed assert, an uncaught exception, or "
     "heap corruption detected by free()"},
    {SIGFPE, "SIGFPE", "arithmetic error, e.g. integer division by zero"},
    {SIGILL, "SIGILL",
     "illegal instruction, e.g. code compiled for a newer CPU, or a corrupted function "
     "pointer or stack"},
    {SIGTRAP, "SIGTRAP", "trap, e.g. __builtin_trap() or a debugger breakpoint"},
    {SIGSYS, "SIGSYS", "bad system call: a system call that is not allowed here"},
    {SIGPIPE, "SIGPIPE", "broken pipe: wrote to a pipe or socket that nobody reads"},
    {SIGKILL, "SIGKILL", ""},
    {SIGTERM, "SIGTERM", "asked to terminate by another process"},
    {SIGINT, "SIGINT", "interrupted by another process"},
    {SIGQUIT, "SIGQUIT", "asked to quit by another process"},
    {SIGHUP, "SIGHUP", "hang-up sent by another process"},
    {SIGXCPU, "SIGXCPU", "CPU time limit exceeded"},
    {SIGXFSZ, "SIGXFSZ", "file size limit exceeded"},
    {SIGALRM, "SIGALRM", "an alarm() timer expired and nothing handled it"},
    {SIGVTALRM, "SIGVTALRM", "a virtual timer expired and nothing handled it"},
    {SIGPROF, "SIGPROF", "a profiling timer expired and nothing handled it"},
    {SIGUSR1, "SIGUSR1", "user signal 1 arrived and nothing handled it"},
    {SIGUSR2, "SIGUSR2", "user signal 2 arrived and nothing handled it"},
    {SIGSTKFLT, "SIGSTKFLT", ""},
    {SIGCHLD, "SIGCHLD", ""},
    {SIGCONT, "SIGCONT", ""},
    {SIGSTOP, "SIGSTOP", ""},
    {SIGTSTP, "SIGTSTP", ""},
    {SIGTTIN, "SIGTTIN", ""},
    {SIGTTOU, "SIGTTOU", ""},
    {SIGURG, "SIGURG", ""},
    {SIGWINCH, "SIGWINCH", ""},
    {SIGIO, "SIGIO", ""},
    {SIGPWR, "SIGPWR", ""},
};

const SignalInfo* find(int signal) {
  for (const auto& info : kSignals)
    if (info.number == signal) return &info;
  return nullptr;
}

}  // namespace

std::string signal_name(int signal) {
  if (const SignalInfo* info = find(signal)) return info->name;
  return "SIG" + std::to_string(signal);
}

std::string signal_explanation(int signal) {
  if (const SignalInfo* info = find(signal)) return info->explanation;
  return "";
}

}  // namespace parlab::grader::process
