#include "process/exit_classifier.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>

using namespace parlab::grader;
using namespace parlab::grader::process;

namespace {

Termination exited(int code) {
  Termination t;
  t.exit_code = code;
  return t;
}

Termination killed_by(int signal) {
  Termination t;
  t.signaled = true;
  t.signal = signal;
  return t;
}

Verdict classify(const Termination& t, const TerminationContext& context = {},
                 const std::string& stderr_text = "") {
  ResourceLimits limits;  // defaults: 10 s wall, 60 s CPU, 2048 MiB, 256 MiB files, 8 MiB output
  return classify_termination(t, context, limits, stderr_text);
}

}  // namespace

TEST_CASE("Exit status 0 is ok with no reason", "[process][classify]") {
  Verdict v = classify(exited(0));
  CHECK(v.outcome == RunOutcome::ok);
  CHECK(v.reason.empty());
}

TEST_CASE("A non-zero exit status is nonzero_exit and names the status", "[process][classify]") {
  Verdict v = classify(exited(3));
  CHECK(v.outcome == RunOutcome::nonzero_exit);
  CHECK(v.reason == "exited with status 3");
}

TEST_CASE("The harness's out-of-memory status 86 is memory_limit", "[process][classify]") {
  Verdict v = classify(exited(kHarnessOutOfMemoryExitCode));
  CHECK(v.outcome == RunOutcome::memory_limit);
  CHECK(v.reason == "memory limit: the program ran out of memory (address-space limit 2 GiB)");
}

TEST_CASE("Faults are crashes with the signal explained", "[process][classify]") {
  Verdict v = classify(killed_by(SIGSEGV));
  CHECK(v.outcome == RunOutcome::crashed);
  CHECK(v.reason ==
        "crashed with SIGSEGV (segmentation fault: invalid memory access, e.g. a null or "
        "dangling pointer, or out-of-bounds index)");
  CHECK_THAT(classify(killed_by(SIGFPE)).reason, Catch::StartsWith("crashed with SIGFPE ("));
  CHECK_THAT(classify(killed_by(SIGBUS)).reason, Catch::StartsWith("crashed with SIGBUS ("));
  CHECK_THAT(classify(killed_by(SIGILL)).reason, Catch::StartsWith("crashed with SIGILL ("));
  CHECK_THAT(classify(killed_by(SIGABRT)).reason, Catch::StartsWith("crashed with SIGABRT ("));
}

TEST_CASE("Signals from outside read as killed by", "[process][classify]") {
  Verdict v = classify(killed_by(SIGTERM));
  CHECK(v.outcome == RunOutcome::crashed);
  CHECK(v.reason == "killed by SIGTERM (asked to terminate by another process)");
}

TEST_CASE("SIGABRT after std::bad_alloc on stderr is memory_limit", "[process][classify]") {
  Verdict v = classify(killed_by(SIGABRT), {},
                       "terminate called after throwing an instance of 'std::bad_alloc'\n");
  CHECK(v.outcome == RunOutcome::memory_limit);
  CHECK_THAT(v.reason, Catch::StartsWith("memory limit: a memory allocation failed"));
  CHECK_THAT(v.reason, Catch::EndsWith("(address-space limit 2 GiB)"));
}

TEST_CASE("SIGXCPU is cpu_limit, SIGXFSZ is output_limit", "[process][classify]") {
  Verdict cpu = classify(killed_by(SIGXCPU));
  CHECK(cpu.outcome == RunOutcome::cpu_limit);
  CHECK(cpu.reason ==
        "cpu limit: used more than 60 s of CPU time (summed over all its threads) and was "
        "stopped (SIGXCPU)");
  Verdict file = classify(killed_by(SIGXFSZ));
  CHECK(file.outcome == RunOutcome::output_limit);
  CHECK(file.reason ==
        "output limit: a file it wrote grew past the file size limit of 256 MiB (SIGXFSZ)");
}

TEST_CASE("Our own kill decides the outcome whatever the status says", "[process][classify]") {
  TerminationContext timeout;
  timeout.killed_for = KillCause::timeout;
  timeout.killed_after_seconds = 10.02;
  Verdict v = classify(killed_by(SIGKILL), timeout);
  CHECK(v.outcome == RunOutcome::timeout);
  CHECK(v.reason == "time limit: still running after 10 s (limit 10 s); killed");
  CHECK(classify(exited(0), timeout).outcome == RunOutcome::timeout);

  TerminationContext flood;
  flood.killed_for = KillCause::output_limit;
  Verdict o = classify(killed_by(SIGKILL), flood);
  CHECK(o.outcome == RunOutcome::output_limit);
  CHECK(o.reason ==
        "output limit: the program wrote more than 8 MiB to stdout/stderr and was stopped");

  TerminationContext report_flood;
  report_flood.killed_for = KillCause::report_limit;
  Verdict r = classify(exited(0), report_flood);
  CHECK(r.outcome == RunOutcome::output_limit);
  CHECK(r.reason ==
        "output limit: the program sent more than 16 MiB through the simulator's report channel and was "
        "stopped");
}

TEST_CASE("SIGKILL from outside: memory when the OOM killer ran, else a crash",
          "[process][classify]") {
  Verdict plain = classify(killed_by(SIGKILL));
  CHECK(plain.outcome == RunOutcome::crashed);
  CHECK_THAT(plain.reason, Catch::StartsWith("killed by SIGKILL"));

  TerminationContext oom;
  oom.oom_killer_ran = true;
  Verdict memory = classify(killed_by(SIGKILL), oom);
  CHECK(memory.outcome == RunOutcome::memory_limit);
  CHECK_THAT(memory.reason, Catch::Contains("killed by SIGKILL"));
  CHECK_THAT(memory.reason, Catch::Contains("out-of-memory killer"));
}

TEST_CASE("SIGKILL after using up the CPU limit is cpu_limit (hard limit)", "[process][classify]") {
  TerminationContext spent;
  spent.cpu_seconds_used = 61;
  Verdict v = classify(killed_by(SIGKILL), spent);
  CHECK(v.outcome == RunOutcome::cpu_limit);
  CHECK_THAT(v.reason, Catch::EndsWith("(SIGKILL)"));
}

TEST_CASE("Wait statuses decode, and bubblewrap's 128+N means signal N", "[process][classify]") {
  Termination direct = termination_from_wait_status(SIGSEGV, false);  // raw: killed by 11
  CHECK(direct.signaled);
  CHECK(direct.signal == SIGSEGV);

  int exited_139 = 139 << 8;
  CHECK(WIFEXITED(exited_139));
  Termination plain = termination_from_wait_status(exited_139, false);
  CHECK_FALSE(plain.signaled);
  CHECK(plain.exit_code == 139);

  Termination sandboxed = termination_from_wait_status(exited_139, true);
  CHECK(sandboxed.signaled);
  CHECK(sandboxed.signal == SIGSEGV);
  CHECK(sandboxed.exit_code == -1);

  Termination small = termination_from_wait_status(3 << 8, true);
  CHECK_FALSE(small.signaled);
  CHECK(small.exit_code == 3);
}

TEST_CASE("A simulator stop status is a plain exit to the process runner, whatever stderr says",
          "[process][classify]") {
  // Naming the stop is grading/simulator_stop's, from the sealed stop record only.
  const std::string forged = "parlab-sim: out-of-bounds read in kernel add, block (3,0,0)\n";
  for (int status : {parlab_sim::kExitMemoryFault, parlab_sim::kExitDeadlock, parlab_sim::kExitUndefinedBehaviour,
                     parlab_sim::kExitKernelFault, parlab_sim::kExitHostDeviceAccess, parlab_sim::kExitNotLocked,
                     parlab_sim::kExitUnsupportedFeature}) {
    Verdict v = classify(exited(status), {}, forged);
    CHECK(v.outcome == RunOutcome::nonzero_exit);
    CHECK(v.reason == "exited with status " + std::to_string(status));
  }
}

TEST_CASE("An OOM kill in the run's cgroup explains a deadlock stop that followed it",
          "[process][classify]") {
  // A worker killed for memory leaves its parent reading a pipe nobody writes; the
  // monitor then stops the stuck tree. The memory limit is the cause, not a deadlock.
  TerminationContext context;
  context.killed_for = KillCause::timeout;
  context.stopped_as_deadlock = true;
  context.killed_after_seconds = 1.5;
  context.stuck_diagnosis = "reading from a pipe that nobody writes";
  context.cgroup_oom_kills = 1;
  context.cgroup_memory_limit_bytes = 64ULL << 20;
  Verdict v = classify(killed_by(SIGKILL), context);
  CHECK(v.outcome == RunOutcome::memory_limit);
  CHECK(v.reason.find("together used more than 64 MiB") != std::string::npos);
  CHECK(v.reason.find("deadlock") == std::string::npos);

  context.cgroup_oom_kills = 0;  // without the kill it stays a deadlock
  CHECK(classify(killed_by(SIGKILL), context).outcome == RunOutcome::timeout);
}
