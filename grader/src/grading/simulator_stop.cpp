#include "grading/simulator_stop.hpp"

#include <cstdint>

#include <nlohmann/json.hpp>

#include "grading/sealed_report.hpp"
#include "parlab_sim/exit_codes.hpp"

namespace parlab::grader {
namespace {

// What the simulator stopped at, for the test's message; the report on stderr (kernel,
// block, thread, the bytes) is shown to the student below it.
std::string stop_reason(const parlab_sim::StopRecord& stop) {
  const std::string see = " (the simulator's report, with kernel, block and thread, is in "
                          "stderr below)";
  switch (stop.exit_code) {
    case parlab_sim::kExitMemoryFault:
      return "invalid device memory access in a kernel: out of bounds, freed memory or a "
             "host pointer" + see;
    case parlab_sim::kExitDeadlock:
      return "deadlock in a kernel: a __syncthreads() or warp collective that not every "
             "thread of the block reaches" + see;
    case parlab_sim::kExitUndefinedBehaviour:
      return "undefined behaviour in a kernel: threads of one block wait at different "
             "__syncthreads(), or the lanes of a warp collective disagree on its operation or "
             "mask; a GPU may hang, let them pass or corrupt data, so no answer of this run "
             "can be trusted: every thread of a block must reach the same barrier" + see;
    case parlab_sim::kExitKernelFault:
      return "fault in a kernel (assert, __trap, division by zero, an exception)" + see;
    case parlab_sim::kExitHostDeviceAccess: {
      const char* verb = stop.host_access == parlab_sim::HostAccess::write  ? "wrote"
                         : stop.host_access == parlab_sim::HostAccess::read ? "read"
                                                                            : "accessed";
      return std::string("host code ") + verb +
             " device memory: a device pointer is only valid inside kernels and "
             "cudaMemcpy/cudaMemset; copy the data back first (on a GPU this is a "
             "segmentation fault) (the simulator's report is in stderr below)";
    }
    case parlab_sim::kExitNotLocked:
      return "the simulator could not lock its checks before the program ran, so nothing "
             "it would report could be trusted: not graded as passing" + see;
    case parlab_sim::kExitUnsupportedFeature:
      // Failed unless its sealed finding confirms the feature (then not graded).
      return "the simulator stopped at a feature it does not run (inline PTX, a launch from "
             "device code, a cuda::barrier of another scope)" + see;
    default:
      return "";
  }
}

std::optional<parlab_sim::HostAccess> host_access_named(const std::string& name) {
  for (const parlab_sim::HostAccess access :
       {parlab_sim::HostAccess::none, parlab_sim::HostAccess::read, parlab_sim::HostAccess::write}) {
    if (name == parlab_sim::host_access_name(access)) return access;
  }
  return std::nullopt;
}

}  // namespace

bool is_simulator_stop_status(int exit_code) {
  switch (exit_code) {
    case parlab_sim::kExitMemoryFault:
    case parlab_sim::kExitDeadlock:
    case parlab_sim::kExitKernelFault:
    case parlab_sim::kExitHostDeviceAccess:
    case parlab_sim::kExitNotLocked:
    case parlab_sim::kExitUnsupportedFeature:
    case parlab_sim::kExitUndefinedBehaviour:
      return true;
    default:
      return false;
  }
}

std::optional<parlab_sim::StopRecord> parse_stop_record(const std::string& payload) {
  const nlohmann::json json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object() || json.size() != 4) return std::nullopt;
  const auto code = json.find(parlab_sim::kStopExitCodeKey);
  const auto offset = json.find(parlab_sim::kStopCodeOffsetKey);
  const auto access = json.find(parlab_sim::kStopHostAccessKey);
  const auto process = json.find(parlab_sim::kStopProcessKey);
  if (code == json.end() || offset == json.end() || access == json.end() || process == json.end())
    return std::nullopt;
  if (!code->is_number_integer() || !offset->is_number_unsigned() || !access->is_string() ||
      !process->is_string())
    return std::nullopt;
  const std::string process_name = process->get<std::string>();
  if (process_name != parlab_sim::kStopMainProcess && process_name != parlab_sim::kStopForkedProcess)
    return std::nullopt;
  // A status is 0 to 255; read wider first, so that 87 + 2^32 is refused, not wrapped to 87.
  const std::int64_t status = code->get<std::int64_t>();
  if (status < 0 || status > 255) return std::nullopt;
  parlab_sim::StopRecord record;
  record.exit_code = static_cast<int>(status);
  record.code_offset = offset->get<std::uint64_t>();
  const std::optional<parlab_sim::HostAccess> host_access = host_access_named(access->get<std::string>());
  if (!host_access || !is_simulator_stop_status(record.exit_code)) return std::nullopt;
  record.host_access = *host_access;
  record.main_process = process_name == parlab_sim::kStopMainProcess;
  return record;
}

std::optional<parlab_sim::StopRecord> sealed_stop_of(const std::filesystem::path& runs_root,
                                                     const std::string& run_name, int exit_code) {
  const std::optional<SealedRun> sealed = sealed_run_of(runs_root / run_name);
  if (!sealed || !sealed->channel_report || sealed->channel_report_truncated) return std::nullopt;
  const std::optional<std::string> lines =
      channel_lines_of(*sealed->channel_report, parlab_sim::kStopChannelName);
  if (!lines) return std::nullopt;
  // A stopped run never exits cleanly: no closing record to look for.
  const UnsealedReport opened =
      unseal_report(*lines, sealed->key_hex, parlab_sim::kStopChannelName, false);
  if (!opened.problem.empty()) return std::nullopt;
  std::optional<parlab_sim::StopRecord> found;
  std::size_t start = 0;
  while (start < opened.payload.size()) {
    const std::size_t end = opened.payload.find('\n', start);
    const std::optional<parlab_sim::StopRecord> record =
        parse_stop_record(opened.payload.substr(start, end - start));
    // A forked child's stop is not the run's (parlab_sim/stop_record.hpp).
    if (record && record->main_process && record->exit_code == exit_code) found = record;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return found;
}

void name_simulator_stop(RunResult& run, const std::optional<parlab_sim::StopRecord>& stop) {
  if (run.signal != 0 || !is_simulator_stop_status(run.exit_code)) return;
  if (stop && stop->main_process && stop->exit_code == run.exit_code) {
    run.outcome = RunOutcome::crashed;
    run.reason = stop_reason(*stop);
    return;
  }
  run.outcome = RunOutcome::nonzero_exit;
  run.reason = "exited with status " + std::to_string(run.exit_code) +
               ", a status the simulator stops with, but the simulator reported no stop "
               "(the program ended itself with it, or the simulator could not report)";
}

}  // namespace parlab::grader
