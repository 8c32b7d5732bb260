// Device choice for GPU labs: reading the probe, and what each --device value does
// when no usable GPU is there (this machine and CI have none; the fake runner below
// plays a probe that finds one).
#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "grading/device_choice.hpp"

using namespace parlab::grader;

namespace {

// Answers every run with the given probe output.
class ProbeRunner : public ProcessRunner {
 public:
  explicit ProbeRunner(std::string out) : out_(std::move(out)) {}
  RunResult run(const RunRequest& request) override {
    last_args = request.args;
    RunResult r;
    r.outcome = RunOutcome::ok;
    r.exit_code = 0;
    r.stdout_text = out_;
    return r;
  }
  std::string sandbox_name() const override { return "fake"; }
  std::vector<std::string> last_args;

 private:
  std::string out_;
};

Toolchain toolchain_with_probe(bool has_probe) {
  Toolchain t;
  if (has_probe) t.cuda_probe = "/opt/parlab/parlab-cuda-probe";
  return t;
}

const char* kH100 =
    R"({"ok":true,"count":1,"name":"NVIDIA H100 80GB HBM3","cc":"9.0","memory_bytes":85031714816,)"
    R"("sms":132,"driver":13000,"runtime":13000,"bandwidth_gbs":2950.5,"sgemm_gflops":51000.0})"
    "\n";
const char* kNoDriver =
    R"({"ok":false,"error":"no NVIDIA driver","message":"no NVIDIA kernel driver is loaded on this machine"})"
    "\n";

}  // namespace

TEST_CASE("device requests parse, and a wrong one is a usage error", "[device]") {
  CHECK(parse_device_request("auto") == DeviceRequest::automatic);
  CHECK(parse_device_request("gpu") == DeviceRequest::gpu);
  CHECK(parse_device_request("sim") == DeviceRequest::sim);
  CHECK(parse_device_request("none") == DeviceRequest::none);
  CHECK_THROWS_WITH(parse_device_request("cuda"), Catch::Contains("auto, gpu, sim or none"));
}

TEST_CASE("probe output: a device with its measured peaks, an error, or garbage", "[device]") {
  ProbeResult ok = parse_probe_output(kH100);
  CHECK(ok.ok);
  CHECK(ok.name == "NVIDIA H100 80GB HBM3");
  CHECK_THAT(ok.detail, Catch::Contains("compute capability 9.0") && Catch::Contains("132 SMs") &&
                            Catch::Contains("79 GiB"));
  CHECK(ok.bandwidth_gbs == 2950.5);
  CHECK(ok.sgemm_gflops == 51000.0);

  ProbeResult none = parse_probe_output(kNoDriver);
  CHECK_FALSE(none.ok);
  CHECK(none.detail == "no NVIDIA driver (no NVIDIA kernel driver is loaded on this machine)");

  ProbeResult garbage = parse_probe_output("Segmentation fault\n");
  CHECK_FALSE(garbage.ok);
  CHECK_THAT(garbage.detail, Catch::Contains("printed something unexpected"));
}

TEST_CASE("auto takes the GPU when the probe finds one, and asks for peaks only if told",
          "[device]") {
  ProbeRunner runner(kH100);
  DeviceInfo d = choose_device(DeviceRequest::automatic, toolchain_with_probe(true), runner,
                               std::filesystem::temp_directory_path() / "parlab-probe-test", false);
  CHECK(d.mode == DeviceMode::gpu);
  CHECK(d.name == "NVIDIA H100 80GB HBM3");
  CHECK(runner.last_args.empty());
  choose_device(DeviceRequest::automatic, toolchain_with_probe(true), runner,
                std::filesystem::temp_directory_path() / "parlab-probe-test", true);
  CHECK(runner.last_args == std::vector<std::string>{"--measure"});
}

TEST_CASE("without a usable GPU: auto falls back to sim, gpu is an environment error",
          "[device]") {
  ProbeRunner runner(kNoDriver);
  const auto dir = std::filesystem::temp_directory_path() / "parlab-probe-test";
  DeviceInfo d = choose_device(DeviceRequest::automatic, toolchain_with_probe(true), runner, dir,
                               false);
  CHECK(d.mode == DeviceMode::sim);
  CHECK_THAT(d.detail, Catch::Contains("no NVIDIA kernel driver"));
  try {
    choose_device(DeviceRequest::gpu, toolchain_with_probe(true), runner, dir, false);
    FAIL("expected EnvironmentError");
  } catch (const EnvironmentError& e) {
    CHECK(e.code() == kExitEnvironment);
    CHECK_THAT(e.what(), Catch::Contains("--device sim"));
  }
  // A build without nvcc has no probe at all: never a GPU.
  DeviceInfo no_cuda = choose_device(DeviceRequest::automatic, toolchain_with_probe(false),
                                     runner, dir, false);
  CHECK(no_cuda.mode == DeviceMode::sim);
  CHECK_THAT(no_cuda.detail, Catch::Contains("no CUDA"));
  CHECK(choose_device(DeviceRequest::none, toolchain_with_probe(true), runner, dir, false).mode ==
        DeviceMode::none);
  CHECK(choose_device(DeviceRequest::sim, toolchain_with_probe(true), runner, dir, false).mode ==
        DeviceMode::sim);
}
