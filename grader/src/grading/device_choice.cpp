#include "grading/device_choice.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// --device's words, the command line's edge of DeviceMode.
constexpr std::pair<DeviceRequest, const char*> kDeviceRequestNames[] = {
    {DeviceRequest::automatic, "auto"},
    {DeviceRequest::gpu, "gpu"},
    {DeviceRequest::sim, "sim"},
    {DeviceRequest::none, "none"},
};

constexpr const char* kSimName = "parlab simulated CUDA device (runs on the CPU)";

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

}  // namespace

DeviceRequest parse_device_request(const std::string& text) {
  for (const auto& [request, name] : kDeviceRequestNames) {
    if (text == name) return request;
  }
  throw UsageError("--device must be auto, gpu, sim or none, got '" + text + "'");
}

ProbeResult parse_probe_output(const std::string& stdout_text) {
  ProbeResult r;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(stdout_text.substr(0, stdout_text.find('\n')));
  } catch (const nlohmann::json::exception&) {
    r.detail = "the CUDA probe printed something unexpected: " + stdout_text.substr(0, 200);
    return r;
  }
  if (!j.is_object()) {
    r.detail = "the CUDA probe printed something unexpected";
    return r;
  }
  if (!j.value("ok", false)) {
    r.detail = j.value("error", std::string("unknown error")) + " (" +
               j.value("message", std::string()) + ")";
    return r;
  }
  r.ok = true;
  r.name = j.value("name", std::string("CUDA device"));
  r.detail = "compute capability " + j.value("cc", std::string("?")) + ", " +
             gib(j.value("memory_bytes", 0.0)) + ", " + std::to_string(j.value("sms", 0)) +
             " SMs";
  r.bandwidth_gbs = j.value("bandwidth_gbs", 0.0);
  r.sgemm_gflops = j.value("sgemm_gflops", 0.0);
  return r;
}

ProbeResult probe_cuda_device(const Toolchain& toolchain, ProcessRunner& runner,
                              const fs::path& work_dir, bool measure_peaks) {
  if (toolchain.cuda_probe.empty()) {
    ProbeResult r;
    r.detail = "this build of parlab has no CUDA (nvcc was not found when it was configured)";
    return r;
  }
  fs::create_directories(work_dir);
  RunRequest req;
  req.executable = toolchain.cuda_probe;
  if (measure_peaks) req.args = {"--measure"};
  req.work_dir = work_dir;
  req.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", work_dir.string()}, {"LANG", "C"}};
  req.limits.wall_seconds = 120;
  req.limits.cpu_seconds = 120;
  req.limits.address_space_mb = 0;  // the CUDA runtime reserves a huge address range
  req.view.read_only = {toolchain.cuda_probe.parent_path()};
  req.view.read_write = {work_dir};
  RunResult run = runner.run(req);
  if (run.outcome != RunOutcome::ok) {
    ProbeResult r;
    r.detail = "the CUDA probe failed: " + run.reason;
    return r;
  }
  return parse_probe_output(run.stdout_text);
}

DeviceInfo choose_device(DeviceRequest request, const Toolchain& toolchain,
                         ProcessRunner& runner, const fs::path& work_dir, bool measure_peaks) {
  DeviceInfo info;
  if (request == DeviceRequest::sim) {
    return {.mode = DeviceMode::sim, .name = kSimName, .detail = "asked for with --device sim"};
  }
  if (request == DeviceRequest::none) {
    return {.mode = DeviceMode::none, .name = "", .detail = "asked for with --device none"};
  }
  ProbeResult probe = probe_cuda_device(toolchain, runner, work_dir, measure_peaks);
  if (probe.ok) {
    return {.mode = DeviceMode::gpu,
            .name = probe.name,
            .detail = probe.detail,
            .bandwidth_gbs = probe.bandwidth_gbs,
            .sgemm_gflops = probe.sgemm_gflops};
  }
  if (request == DeviceRequest::gpu) {
    throw EnvironmentError("--device gpu: no usable CUDA device: " + probe.detail +
                           ". Use --device sim to check correctness in the simulator.");
  }
  return {.mode = DeviceMode::sim, .name = kSimName, .detail = "no usable CUDA device: " + probe.detail};
}

DeviceMode device_mode_of(const DeviceInfo& device) { return device.mode; }

}  // namespace parlab::grader
