// The stop record, end to end: what a stopping runtime sends on its sealed channel
// (fault/fatal_report, report/sealed_channel) is what the grader verifies and names
// (grading/simulator_stop), through the one definition both use
// (parlab_sim/stop_record.hpp). The program runs keyed, with a socket at the report
// descriptor, as a graded run does. A record under another key, a forked child's stop,
// or a stop status the program gave itself after printing a forged report, names no stop.
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "grading/sealed_report.hpp"
#include "grading/simulator_stop.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/settings_descriptor.hpp"
#include "parlab_sim/stop_record.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

const std::string kKey = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

struct StoppedProgram {
  int exit_code = -1;
  std::string channel;  // every record it sent, one per line
  fs::path program;
};

// Runs the fixture program `stops` with `how`, keyed, its report socket at the report
// descriptor; what came through the socket.
StoppedProgram run_keyed(const std::string& how) {
  StoppedProgram out;
  out.program = fs::path(PARLAB_SIM_PROGRAMS_DIR) / "sim_fixture_stops";
  int ends[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (::dup2(ends[1], parlab_sim::kReportDescriptor) < 0) ::_exit(120);
    ::setenv("PARLAB_SIM_REPORT_KEY", kKey.c_str(), 1);
    const std::string path = out.program.string();
    ::execl(path.c_str(), path.c_str(), how.c_str(), static_cast<char*>(nullptr));
    ::_exit(121);
  }
  ::close(ends[1]);
  char record[4096];
  for (;;) {
    const ssize_t n = ::recv(ends[0], record, sizeof record, 0);
    if (n <= 0) break;
    out.channel.append(record, static_cast<std::size_t>(n));
  }
  ::close(ends[0]);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  out.exit_code = WEXITSTATUS(status);
  return out;
}

// The grader's view of that run, remembered as LabRunner remembers a sealed run.
std::optional<parlab_sim::StopRecord> graded_stop(const StoppedProgram& run, const std::string& key,
                                                  const std::string& name, int exit_code) {
  const fs::path root = fs::temp_directory_path() / ("parlab-stop-record-" + std::to_string(::getpid()));
  remember_sealed_run(root / name, {key, false, run.channel, false});
  return sealed_stop_of(root, name, exit_code);
}

// The function addr2line names at `offset` of `program`.
std::string function_at(const fs::path& program, std::uint64_t offset) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(offset));
  const std::string command = "addr2line -f -C -e '" + program.string() + "' " + hex;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string text;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) text += buffer;
  ::pclose(pipe);
  return text;
}

RunResult exited(int code) {
  RunResult run;
  run.outcome = RunOutcome::nonzero_exit;
  run.exit_code = code;
  return run;
}

}  // namespace

TEST_CASE("a kernel's fault: its record carries the store's code offset", "[sim][stop_record]") {
  const StoppedProgram run = run_keyed("kernel_write_past_end");
  INFO(run.channel);
  REQUIRE(run.exit_code == parlab_sim::kExitMemoryFault);
  const std::optional<parlab_sim::StopRecord> stop = graded_stop(run, kKey, "kernel", run.exit_code);
  REQUIRE(stop);
  CHECK(stop->host_access == parlab_sim::HostAccess::none);
  CHECK(stop->main_process);
  // The offset is the store's: addr2line names the kernel's line in the fixture.
  REQUIRE(stop->code_offset != 0);
  CHECK(stop->code_offset < fs::file_size(run.program));
  CHECK(function_at(run.program, stop->code_offset).find("write_past_end") != std::string::npos);
  RunResult result = exited(run.exit_code);
  name_simulator_stop(result, stop);
  CHECK(result.outcome == RunOutcome::crashed);
  CHECK(result.reason.rfind("invalid device memory access in a kernel", 0) == 0);
  // Another key, or another status than the record's: no stop.
  CHECK_FALSE(graded_stop(run, std::string(64, 'a'), "kernel-other-key", run.exit_code));
  CHECK_FALSE(graded_stop(run, kKey, "kernel-other-status", parlab_sim::kExitDeadlock));
}

TEST_CASE("host code reading device memory: the record says read", "[sim][stop_record]") {
  const StoppedProgram run = run_keyed("host_reads_device");
  INFO(run.channel);
  REQUIRE(run.exit_code == parlab_sim::kExitHostDeviceAccess);
  const std::optional<parlab_sim::StopRecord> stop = graded_stop(run, kKey, "host", run.exit_code);
  REQUIRE(stop);
  CHECK(stop->host_access == parlab_sim::HostAccess::read);
  CHECK(stop->code_offset != 0);
  RunResult result = exited(run.exit_code);
  name_simulator_stop(result, stop);
  CHECK(result.reason.rfind("host code read device memory", 0) == 0);
}

TEST_CASE("a program that prints a forged report and exits with a stop status is a plain exit",
          "[sim][stop_record]") {
  const StoppedProgram run = run_keyed("own_exit");
  REQUIRE(run.exit_code == parlab_sim::kExitMemoryFault);
  CHECK(run.channel.find("S ") == std::string::npos);  // no stop record was sent
  const std::optional<parlab_sim::StopRecord> stop = graded_stop(run, kKey, "own", run.exit_code);
  CHECK_FALSE(stop);
  RunResult result = exited(run.exit_code);
  name_simulator_stop(result, stop);
  CHECK(result.outcome == RunOutcome::nonzero_exit);
  CHECK(result.reason.rfind("exited with status 87, a status the simulator stops with", 0) == 0);
}

TEST_CASE("a forked child's stop is not the run's, though the parent exits with its status",
          "[sim][stop_record]") {
  const StoppedProgram run = run_keyed("child_stops");
  INFO(run.channel);
  REQUIRE(run.exit_code == parlab_sim::kExitHostDeviceAccess);
  // The child's record came, sealed, and says so; the grader does not take it.
  CHECK(run.channel.find("\"process\":\"fork\"") != std::string::npos);
  const std::optional<parlab_sim::StopRecord> stop = graded_stop(run, kKey, "forked", run.exit_code);
  CHECK_FALSE(stop);
  RunResult result = exited(run.exit_code);
  name_simulator_stop(result, stop);
  CHECK(result.outcome == RunOutcome::nonzero_exit);
}
