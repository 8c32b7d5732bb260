// grading/simulator_stop: the stop record's payload is read strictly, round-trips every
// stop the runtime can make (parlab_sim/stop_record.hpp), and a run's outcome and
// reason come from the record, never from stderr.
#include <catch2/catch.hpp>
#include <string>

#include "grading/simulator_stop.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/stop_record.hpp"

using namespace parlab::grader;
using parlab_sim::HostAccess;
using parlab_sim::StopRecord;

namespace {

std::string formatted(const StopRecord& record) {
  char out[parlab_sim::kStopRecordCapacity];
  const std::size_t n = parlab_sim::format_stop_record(record, out);
  return std::string(out, n);
}

RunResult exited(int code) {
  RunResult run;
  run.outcome = RunOutcome::nonzero_exit;
  run.exit_code = code;
  run.reason = "exited with status " + std::to_string(code);
  return run;
}

}  // namespace

TEST_CASE("simulator stop: every stop's record round-trips", "[grading][simulator_stop]") {
  const int statuses[] = {parlab_sim::kExitMemoryFault,        parlab_sim::kExitDeadlock,
                          parlab_sim::kExitKernelFault,        parlab_sim::kExitHostDeviceAccess,
                          parlab_sim::kExitNotLocked,          parlab_sim::kExitUnsupportedFeature,
                          parlab_sim::kExitUndefinedBehaviour};
  const std::uint64_t offsets[] = {0, 0x1a2b3, ~std::uint64_t{0}};
  for (int status : statuses) {
    for (std::uint64_t offset : offsets) {
      for (HostAccess access : {HostAccess::none, HostAccess::read, HostAccess::write}) {
        for (bool main_process : {false, true}) {
          const std::optional<StopRecord> back =
              parse_stop_record(formatted({status, offset, access, main_process}));
          REQUIRE(back);
          CHECK(back->exit_code == status);
          CHECK(back->code_offset == offset);
          CHECK(back->host_access == access);
          CHECK(back->main_process == main_process);
        }
      }
    }
  }
  CHECK(formatted({87, 107187, HostAccess::read, true}) ==
        R"({"exit_code":87,"code_offset":107187,"host_access":"read","process":"main"})");
}

TEST_CASE("simulator stop: anything but a well-formed stop record is refused", "[grading][simulator_stop]") {
  CHECK_FALSE(parse_stop_record(""));
  CHECK_FALSE(parse_stop_record("parlab-sim: invalid memory read"));
  const auto with = [](const std::string& code, const std::string& offset, const std::string& access,
                       const std::string& process) {
    return "{\"exit_code\":" + code + ",\"code_offset\":" + offset + ",\"host_access\":" + access +
           ",\"process\":" + process + "}";
  };
  CHECK(parse_stop_record(with("87", "16", "\"none\"", "\"main\"")));  // the control
  CHECK_FALSE(parse_stop_record(with("1", "0", "\"none\"", "\"main\"")));  // not a stop
  CHECK_FALSE(parse_stop_record(with("0", "0", "\"none\"", "\"main\"")));
  CHECK_FALSE(parse_stop_record(with("4294967383", "16", "\"none\"", "\"main\"")));  // 87 + 2^32
  CHECK_FALSE(parse_stop_record(with("-169", "16", "\"none\"", "\"main\"")));        // 87 - 256
  CHECK_FALSE(parse_stop_record(with("87.0", "16", "\"none\"", "\"main\"")));
  CHECK_FALSE(parse_stop_record(with("87", "-4", "\"none\"", "\"main\"")));
  CHECK_FALSE(parse_stop_record(with("87", "\"0x10\"", "\"none\"", "\"main\"")));
  CHECK_FALSE(parse_stop_record(with("87", "16", "\"both\"", "\"main\"")));
  CHECK_FALSE(parse_stop_record(with("87", "16", "\"none\"", "\"parent\"")));
  CHECK_FALSE(parse_stop_record(with("87", "16", "\"none\"", "true")));
  CHECK_FALSE(parse_stop_record(R"({"exit_code":87,"code_offset":16,"host_access":"none"})"));
  CHECK_FALSE(parse_stop_record(
      R"({"exit_code":87,"code_offset":16,"host_access":"none","process":"main","x":1})"));
  CHECK_FALSE(parse_stop_record(R"([87,16,"none","main"])"));
}

TEST_CASE("simulator stop: the record names the stop, a bare status is a plain exit",
          "[grading][simulator_stop]") {
  RunResult fault = exited(parlab_sim::kExitMemoryFault);
  name_simulator_stop(fault, StopRecord{parlab_sim::kExitMemoryFault, 0x10, HostAccess::none, true});
  CHECK(fault.outcome == RunOutcome::crashed);
  CHECK(fault.reason.rfind("invalid device memory access in a kernel", 0) == 0);

  RunResult deadlock = exited(parlab_sim::kExitDeadlock);
  name_simulator_stop(deadlock, StopRecord{parlab_sim::kExitDeadlock, 0, HostAccess::none, true});
  CHECK(deadlock.reason.rfind("deadlock in a kernel", 0) == 0);

  // Barriers at different sites are undefined behaviour, not a deadlock: said so.
  RunResult undefined = exited(parlab_sim::kExitUndefinedBehaviour);
  name_simulator_stop(undefined, StopRecord{parlab_sim::kExitUndefinedBehaviour, 0, HostAccess::none, true});
  CHECK(undefined.reason.rfind("undefined behaviour in a kernel: threads of one block wait at "
                               "different __syncthreads()", 0) == 0);
  CHECK(undefined.reason.find("deadlock") == std::string::npos);

  RunResult wrote = exited(parlab_sim::kExitHostDeviceAccess);
  name_simulator_stop(wrote, StopRecord{parlab_sim::kExitHostDeviceAccess, 0x20, HostAccess::write, true});
  CHECK(wrote.reason.rfind("host code wrote device memory: a device pointer", 0) == 0);
  RunResult read = exited(parlab_sim::kExitHostDeviceAccess);
  name_simulator_stop(read, StopRecord{parlab_sim::kExitHostDeviceAccess, 0x20, HostAccess::read, true});
  CHECK(read.reason.rfind("host code read device memory: ", 0) == 0);

  RunResult unlocked = exited(parlab_sim::kExitNotLocked);
  name_simulator_stop(unlocked, StopRecord{parlab_sim::kExitNotLocked, 0, HostAccess::none, true});
  CHECK(unlocked.reason.rfind("the simulator could not lock its checks", 0) == 0);

  RunResult unsupported = exited(parlab_sim::kExitUnsupportedFeature);
  name_simulator_stop(unsupported, StopRecord{parlab_sim::kExitUnsupportedFeature, 0, HostAccess::none, true});
  CHECK(unsupported.outcome == RunOutcome::crashed);  // until its sealed finding says otherwise
  CHECK(unsupported.reason.find("a feature it does not run") != std::string::npos);

  // No record, or one for another status: the program's own exit.
  RunResult bare = exited(parlab_sim::kExitMemoryFault);
  name_simulator_stop(bare, std::nullopt);
  CHECK(bare.outcome == RunOutcome::nonzero_exit);
  CHECK(bare.reason.rfind("exited with status 87, a status the simulator stops with", 0) == 0);
  RunResult mismatched = exited(parlab_sim::kExitMemoryFault);
  name_simulator_stop(mismatched, StopRecord{parlab_sim::kExitDeadlock, 0, HostAccess::none, true});
  CHECK(mismatched.outcome == RunOutcome::nonzero_exit);

  // A forked child's record is not the run's stop.
  RunResult forked = exited(parlab_sim::kExitUnsupportedFeature);
  name_simulator_stop(forked, StopRecord{parlab_sim::kExitUnsupportedFeature, 0, HostAccess::none, false});
  CHECK(forked.outcome == RunOutcome::nonzero_exit);

  // Any other status is left as the process runner named it.
  RunResult other = exited(3);
  name_simulator_stop(other, std::nullopt);
  CHECK(other.reason == "exited with status 3");
  CHECK_FALSE(is_simulator_stop_status(parlab_sim::kExitOutOfMemory));
}
