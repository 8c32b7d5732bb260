#pragma once
// Where a GPU lab's tests run: on a CUDA device, in the simulation backend, or nowhere.
// `--device auto` (the default) takes the GPU when the probe finds one usable inside
// the sandbox, else the simulator; `gpu` insists (exit 3 without one); `none` runs
// no GPU test (each reported as skipped, exit 3).
#include <filesystem>
#include <string>

#include "compile/toolchain.hpp"
#include "process/process_runner.hpp"
#include "result/result.hpp"

namespace parlab::grader {

enum class DeviceRequest { automatic, gpu, sim, none };

// DeviceInfo::mode (DeviceMode is result/result.hpp's: the result carries it).
DeviceMode device_mode_of(const DeviceInfo& device);

// Throws UsageError naming the accepted values.
DeviceRequest parse_device_request(const std::string& text);

// What parlab-cuda-probe found: a usable device, or why not.
struct ProbeResult {
  bool ok = false;
  std::string name;     // e.g. "NVIDIA H100 80GB HBM3"
  std::string detail;   // compute capability and memory, or the error
  double bandwidth_gbs = 0;
  double sgemm_gflops = 0;
};

// Parses the probe's one JSON line (exposed for tests).
ProbeResult parse_probe_output(const std::string& stdout_text);

// Runs the probe in the sandbox (so "usable" means usable by a submission). With
// `measure_peaks`, it also measures copy bandwidth and the cuBLAS SGEMM rate.
ProbeResult probe_cuda_device(const Toolchain& toolchain, ProcessRunner& runner,
                              const std::filesystem::path& work_dir, bool measure_peaks);

// Decides the mode; throws EnvironmentError for `gpu` without a usable device.
DeviceInfo choose_device(DeviceRequest request, const Toolchain& toolchain,
                         ProcessRunner& runner, const std::filesystem::path& work_dir,
                         bool measure_peaks);

}  // namespace parlab::grader
