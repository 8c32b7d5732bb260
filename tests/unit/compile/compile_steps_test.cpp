// The build commands for each target: what a sim build rewrites and links, what nvcc
// is asked for, and the clear errors when this build cannot make a target.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <unistd.h>

#include "core/errors.hpp"
#include "compile/compile_steps.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

struct Fixture {
  fs::path root = fs::temp_directory_path() / ("parlab-steps-" + std::to_string(::getpid()));
  Toolchain tc;
  LabSpec lab;
  fs::path stage = root / "stage";

  Fixture() {
    fs::remove_all(root);
    fs::create_directories(stage);
    for (const char* f : {"libdriver_sim.a", "parlab-sim-rewrite", "libharness.a", "libsim.a"}) {
      std::ofstream(root / f) << "x";
    }
    for (const char* f : {"kernels.cu", "helpers.cuh", "util.hpp"}) std::ofstream(stage / f) << "";
    tc.build_dir = root;
    tc.cxx = "/usr/bin/c++";
    tc.cxx_standard = "c++20";
    tc.cxx_flags = {"-O2", "-pthread"};
    tc.harness_include = root / "harness-include";
    tc.harness_lib = root / "libharness.a";
    tc.sim = {root / "parlab-sim-rewrite", root / "libsim.a",
              {root / "cuda_compat", root / "sim-include"}, "parlab_sim/prelude.hpp",
              {"/usr/lib/libboost_context.so"},
              {"-fsanitize=thread", "--param=tsan-instrument-func-entry-exit=0", "-g1"},
              {"-fsanitize-coverage=trace-pc"}, root / "prelude-pch"};
    LabToolchain l;
    l.dir = root / "lab";
    l.sim_driver_lib = root / "libdriver_sim.a";
    l.cpu_reference_exe = root / "cpu_ref";
    tc.labs["lab77"] = l;
    lab.id = "lab77";
    lab.kind = Device::gpu;
    lab.sources = {"kernels.cu"};
  }
  ~Fixture() { fs::remove_all(root); }
};

bool contains(const std::vector<std::string>& args, const std::string& a) {
  return std::find(args.begin(), args.end(), a) != args.end();
}

}  // namespace

TEST_CASE("sim build: host .cpp sources are compiled without the race check's "
          "instrumentation, as the reference's are", "[build]") {
  // lab02's CPU tests time regression_cpu.cpp against the reference's uninstrumented
  // build: instrumented, the reference itself measured 0.32x.
  Fixture f;
  std::ofstream(f.stage / "host.cpp") << "";
  f.lab.sources = {"host.cpp", "kernels.cu"};
  CompilePlan plan = plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe");
  int compiled = 0;
  for (const CompileStep& step : plan.steps) {
    if (!contains(step.args, "-c")) continue;
    ++compiled;
    const bool host = contains(step.args, (f.stage / "host.cpp").string());
    INFO((host ? "host.cpp" : "kernels.cu"));
    CHECK(contains(step.args, "-fsanitize=thread") == !host);
    CHECK(contains(step.args, "-fsanitize-coverage=trace-pc") == !host);  // branch divergence
  }
  CHECK(compiled == 2);
}

TEST_CASE("sim build: PARLAB_SIM_DIVERGENCE=0 leaves out the divergence counter's coverage "
          "hook, not the rest of the check build", "[build]") {
  Fixture f;
  setenv("PARLAB_SIM_DIVERGENCE", "0", 1);
  CompilePlan plan = plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe");
  unsetenv("PARLAB_SIM_DIVERGENCE");
  const CompileStep& compile = plan.steps[3];  // after the rewrites and the preprocessing
  REQUIRE(contains(compile.args, "-c"));
  CHECK(contains(compile.args, "-fsanitize=thread"));
  CHECK_FALSE(contains(compile.args, "-fsanitize-coverage=trace-pc"));
}

TEST_CASE("sim build: a .cuh in a sub-folder is rewritten to the same relative path under "
          "stage/sim, and a previous build's stage/sim is not rewritten again", "[build]") {
  Fixture f;
  fs::create_directories(f.stage / "common" / "deep");
  std::ofstream(f.stage / "common" / "scan.cuh") << "";
  std::ofstream(f.stage / "common" / "deep" / "warp.cuh") << "";
  std::ofstream(f.stage / "common" / "plain.hpp") << "";
  fs::create_directories(f.stage / "sim" / "common");
  std::ofstream(f.stage / "sim" / "common" / "scan.cuh") << "";  // an old rewritten copy
  CompilePlan plan = plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe");
  std::vector<std::vector<std::string>> rewrites;
  for (const CompileStep& step : plan.steps) {
    if (step.program == f.tc.sim.rewrite_tool) rewrites.push_back(step.args);
  }
  const fs::path& s = f.stage;
  CHECK(rewrites == std::vector<std::vector<std::string>>{
                        {(s / "common/deep/warp.cuh").string(), (s / "sim/common/deep/warp.cuh").string()},
                        {(s / "common/scan.cuh").string(), (s / "sim/common/scan.cuh").string()},
                        {(s / "helpers.cuh").string(), (s / "sim/helpers.cuh").string()},
                        {(s / "kernels.cu").string(), (s / "sim/kernels.cu.cpp").string()}});
}

TEST_CASE("sim build: every .cu and .cuh is rewritten into stage/sim, each source compiled "
          "with the race check's instrumentation, then one g++ link without it",
          "[build]") {
  Fixture f;
  CompilePlan plan = plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe");
  REQUIRE(plan.steps.size() == 6);
  CHECK(plan.steps[0].program == f.tc.sim.rewrite_tool);
  CHECK(plan.steps[0].args == std::vector<std::string>{(f.stage / "helpers.cuh").string(),
                                                       (f.stage / "sim" / "helpers.cuh").string()});
  CHECK(plan.steps[1].args == std::vector<std::string>{(f.stage / "kernels.cu").string(),
                                                       (f.stage / "sim" / "kernels.cu.cpp").string()});
  // The same compile, preprocessed only, for the grader's read of what the compiler saw
  // (compile/unchecked_code).
  const CompileStep& preprocess = plan.steps[2];
  const CompileStep& compile = plan.steps[3];
  CHECK(preprocess.program == compile.program);
  CHECK(contains(preprocess.args, "-E"));
  CHECK_FALSE(contains(preprocess.args, "-c"));
  CHECK(contains(preprocess.args, sim_preprocessed_path(f.stage, "kernels.cu").string()));
  CHECK(sim_preprocessed_path(f.stage, "kernels.cu") == f.stage / "sim" / "kernels.cu.ii");
  CHECK(contains(preprocess.args, "-fsanitize=thread"));
  CHECK(contains(preprocess.args, (f.stage / "sim" / "kernels.cu.cpp").string()));
  CHECK(compile.program == "/usr/bin/c++");
  CHECK(contains(compile.args, "parlab_sim/prelude.hpp"));
  CHECK(contains(compile.args, "-fsanitize=thread"));
  CHECK(contains(compile.args, "-c"));
  CHECK(contains(compile.args, (f.stage / "sim" / "kernels.cu.cpp").string()));
  CHECK_FALSE(contains(compile.args, (f.stage / "kernels.cu").string()));
  // The object's calls of C++'s new and delete renamed to the runtime's, whose kernel
  // threads get device heap memory (sim/src/runtime/kernel_new.cpp).
  const CompileStep& rename = plan.steps[4];
  CHECK(rename.program == "/usr/bin/objcopy");  // next to the compiler when toolchain.json names none
  CHECK(contains(rename.args, "--redefine-sym=_Znwm=parlab_sim_new"));
  CHECK(contains(rename.args, "--redefine-sym=_ZdaPv=parlab_sim_delete_array"));
  CHECK(contains(rename.args, "--redefine-sym=_ZdlPvm=parlab_sim_delete_sized"));
  CHECK(contains(rename.args, "--redefine-sym=_ZnwmSt11align_val_t=parlab_sim_new_aligned"));
  CHECK(rename.args.size() == 21);
  CHECK(rename.args.back() == (f.stage / "sim" / "kernels.cu.o").string());
  const CompileStep& link = plan.steps[5];
  CHECK(link.program == "/usr/bin/c++");
  CHECK(contains(link.args, "-Wl,-z,relro,-z,now"));  // the GOT read-only before the runtime's lock
  CHECK(contains(link.args, (f.stage / "sim" / "kernels.cu.o").string()));
  CHECK_FALSE(contains(link.args, "-fsanitize=thread"));  // libtsan stays out
  CHECK(contains(link.args, (f.root / "libdriver_sim.a").string()));
  CHECK(contains(link.args, "/usr/lib/libboost_context.so"));
  // Never the real CUDA runtime in sim mode.
  for (const std::string& a : link.args) CHECK(a.find("cudart") == std::string::npos);
  CHECK(std::find(plan.read_only.begin(), plan.read_only.end(), f.root / "cuda_compat") !=
        plan.read_only.end());
}

TEST_CASE("sim build with nvcc installed: nvcc checks each .cu first (front ends and device code)",
          "[build]") {
  Fixture f;
  f.tc.nvcc = "/usr/local/cuda/bin/nvcc";
  setenv("PARLAB_SIM_VIEWS", "0", 1);  // the views' steps: the next test
  CompilePlan plan = plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe");
  unsetenv("PARLAB_SIM_VIEWS");
  REQUIRE(plan.steps.size() == 7);
  const CompileStep& check = plan.steps[2];  // after the rewrites, before g++
  CHECK(check.program == "/usr/local/cuda/bin/nvcc");
  CHECK(contains(check.args, (f.stage / "kernels.cu").string()));
  CHECK(contains(check.args, "-cuda"));  // stops before the host half is compiled
  CHECK(contains(check.args, "/dev/null"));
  CHECK(check.checks_source == "kernels.cu");  // a check: its pass may be remembered
  for (const CompileStep& step : plan.steps)
    if (&step != &check) CHECK(step.checks_source.empty());  // the build's own steps never are
  CHECK(std::find(plan.inputs.begin(), plan.inputs.end(), f.tc.nvcc) != plan.inputs.end());
  setenv("PARLAB_SIM_NVCC_CHECK", "0", 1);
  CHECK(plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe").steps.size() == 6);
  unsetenv("PARLAB_SIM_NVCC_CHECK");
}

TEST_CASE("sim build with nvcc installed: each source preprocessed as the simulator and as "
          "nvcc sees it, for the host and for every GPU architecture", "[build][views]") {
  Fixture f;
  f.tc.nvcc = "/usr/local/cuda/bin/nvcc";
  f.tc.nvcc_architectures = {"750", "900", "1210"};
  f.lab.sources = {"kernels.cu", "host.cpp"};
  std::ofstream(f.stage / "host.cpp") << "";
  const std::vector<CompiledView> few = sim_compiled_views(f.lab, f.tc, f.stage);
  std::vector<std::string> names;
  for (const CompiledView& v : few) names.push_back(v.source + " " + view_name(v));
  // Sources that never name an architecture macro: sm_90's device view is enough
  // (compile/architecture_names); nvcc compiles a .cpp for the host only.
  CHECK(names == std::vector<std::string>{"kernels.cu sim", "kernels.cu host", "kernels.cu sm_90",
                                          "host.cpp sim", "host.cpp host"});
  std::ofstream(f.stage / "helpers.cuh") << "#if __CUDA_ARCH__ >= 800\n#endif\n";
  const std::vector<CompiledView> every = sim_compiled_views(f.lab, f.tc, f.stage);
  names.clear();
  for (const CompiledView& v : every) names.push_back(v.source + " " + view_name(v));
  CHECK(names == std::vector<std::string>{"kernels.cu sim", "kernels.cu host", "kernels.cu sm_75",
                                          "kernels.cu sm_90", "kernels.cu sm_121", "host.cpp sim",
                                          "host.cpp host"});
  CHECK(every[3].output == f.stage / "sim" / "kernels.cu.view-sm_90.ii");
  const std::vector<CompiledView> views = every;

  const CompilePlan plan = plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe");
  const auto writes = [](const CompileStep& s, const fs::path& out) { return contains(s.args, out.string()); };
  const auto sim_view = std::find_if(plan.steps.begin(), plan.steps.end(),
                                     [&](const CompileStep& s) { return writes(s, views[0].output); });
  REQUIRE(sim_view != plan.steps.end());
  // The simulator's own compile, preprocessed: its prelude and the nvcc macros, no
  // precompiled header (it holds no text), -E -fdirectives-only.
  CHECK(sim_view->program == f.tc.cxx);
  CHECK(contains(sim_view->args, "-fdirectives-only"));
  CHECK(contains(sim_view->args, "-E"));
  CHECK_FALSE(contains(sim_view->args, "-c"));
  CHECK(contains(sim_view->args, (f.stage / "kernels.cu").string()));  // the file, not its rewritten copy
  CHECK_FALSE(contains(sim_view->args, (f.stage / "sim" / "kernels.cu.cpp").string()));
  CHECK(contains(sim_view->args, "parlab_sim/nvcc_macros.hpp"));
  CHECK_FALSE(contains(sim_view->args, "-I" + (f.root / "prelude-pch").string()));
  CHECK(contains(sim_view->args, "-fsanitize=thread"));  // the very flags: they define macros too

  const auto gpu_views = std::find_if(plan.steps.begin(), plan.steps.end(),
                                      [&](const CompileStep& s) { return writes(s, views[3].output); });
  REQUIRE(gpu_views != plan.steps.end());
  CHECK(gpu_views->program == "/bin/bash");
  CHECK(contains(gpu_views->args, f.tc.nvcc.string()));
  CHECK(contains(gpu_views->args, "-Xcompiler=-fdirectives-only"));
  CHECK(contains(gpu_views->args, "-O3"));  // the GPU build's flags (__OPTIMIZE__)
  CHECK(contains(gpu_views->args,
                 "-Xcompiler=-U__CUDA_ARCH_LIST__,-U__CUDA_ARCH__,-D__CUDA_ARCH_LIST__=1/0,-D__CUDA_ARCH__=900"));
  CHECK(contains(gpu_views->args,
                 "-Xcompiler=-U__CUDA_ARCH_LIST__,-U__CUDA_ARCH__,-D__CUDA_ARCH_LIST__=1/0,-D__CUDA_ARCH__=1210"));
  CHECK(contains(gpu_views->args,
                 "-Xcompiler=-U__CUDA_ARCH_LIST__,-U__CUDA_ARCH__,-D__CUDA_ARCH_LIST__=1/0,-UCUDA_DOUBLE_MATH_FUNCTIONS"));
  // The .cpp's host view: nvcc passes a .cpp to the host compiler, no CUDA macros.
  CHECK(std::any_of(plan.steps.begin(), plan.steps.end(),
                    [&](const CompileStep& s) { return writes(s, views[6].output); }));

  setenv("PARLAB_SIM_VIEWS", "0", 1);
  CHECK(sim_compiled_views(f.lab, f.tc, f.stage).empty());
  unsetenv("PARLAB_SIM_VIEWS");
  f.tc.nvcc.clear();  // without nvcc no GPU view can be made
  CHECK(sim_compiled_views(f.lab, f.tc, f.stage).empty());
}

TEST_CASE("CUDA build: nvcc for this machine's GPU, a clear error without nvcc", "[build]") {
  Fixture f;
  CHECK_THROWS_WITH(plan_compile(BuildTarget::cuda, f.lab, f.tc, f.stage, f.root / "exe"),
                    Catch::Contains("no nvcc") && Catch::Contains("--device sim"));
  f.tc.nvcc = "/usr/local/cuda/bin/nvcc";
  // nvcc is there, but this lab's CUDA driver library was never built.
  CHECK_THROWS_AS(plan_compile(BuildTarget::cuda, f.lab, f.tc, f.stage, f.root / "exe"),
                  EnvironmentError);
  std::ofstream(f.root / "libdriver_cuda.a") << "x";
  f.tc.labs["lab77"].driver_lib = f.root / "libdriver_cuda.a";
  CompilePlan plan = plan_compile(BuildTarget::cuda, f.lab, f.tc, f.stage, f.root / "exe");
  // One object per source (read by the builder's library check before any run), then the link.
  REQUIRE(plan.steps.size() == 2);
  CHECK(plan.steps[0].program == "/usr/local/cuda/bin/nvcc");
  CHECK(contains(plan.steps[0].args, "-arch=native"));
  CHECK(contains(plan.steps[0].args, "-c"));
  CHECK(contains(plan.steps[0].args, (f.stage / "kernels.cu").string()));
  CHECK(contains(plan.steps[0].args, cuda_object_path(f.stage, "kernels.cu").string()));
  CHECK(contains(plan.steps[1].args, cuda_object_path(f.stage, "kernels.cu").string()));
  CHECK(contains(plan.steps[1].args, "-arch=native"));
  CHECK(contains(plan.steps[1].args, (f.root / "libdriver_cuda.a").string()));
  CHECK(join_command(plan.steps[0]).rfind("/usr/local/cuda/bin/nvcc -std=c++20", 0) == 0);
}

TEST_CASE("sim build of a lab built without its sim driver says what to run", "[build]") {
  Fixture f;
  f.tc.labs["lab77"].sim_driver_lib.clear();
  CHECK_THROWS_WITH(plan_compile(BuildTarget::sim, f.lab, f.tc, f.stage, f.root / "exe"),
                    Catch::Contains("cmake --build"));
}

// The compiler's sandbox view: the libraries it links are shown one file at a time,
// never the build folder they sit in (which holds every lab's reference executables
// and the simulator's rewritten reference sources).
TEST_CASE("the compiler sees link inputs as single files, never a folder of build products",
          "[build][sandbox]") {
  Fixture f;
  f.tc.labs["lab77"].reference_exe = f.root / "lab77_reference";
  f.tc.labs["lab77"].sim_reference_exe = f.root / "lab77_reference_sim";
  f.tc.nvcc = "/usr/local/cuda/bin/nvcc";
  std::ofstream(f.root / "libdriver_cuda.a") << "x";
  f.tc.labs["lab77"].driver_lib = f.root / "libdriver_cuda.a";
  const fs::path secrets[] = {f.root / "lab77_reference", f.root / "lab77_reference_sim",
                              f.root / "cpu_ref", f.root / "sim-rewritten" / "ref.cu.cpp"};
  for (BuildTarget target : {BuildTarget::host, BuildTarget::cuda, BuildTarget::sim}) {
    CAPTURE(to_string(target));
    const CompilePlan plan = plan_compile(target, f.lab, f.tc, f.stage, f.root / "exe");
    for (const fs::path& shown : plan.read_only) {
      CAPTURE(shown);
      CHECK(shown != f.root);
      for (const fs::path& secret : secrets) {
        const fs::path rel = secret.lexically_relative(shown);
        const bool inside = !rel.empty() && *rel.begin() != "..";
        CHECK_FALSE(inside);
        CHECK(shown != secret);
      }
    }
    const fs::path lib = target == BuildTarget::sim ? f.root / "libdriver_sim.a"
                                                    : f.root / "libdriver_cuda.a";
    CHECK(std::find(plan.read_only.begin(), plan.read_only.end(), lib) != plan.read_only.end());
    CHECK(std::find(plan.read_only.begin(), plan.read_only.end(), f.tc.harness_lib) !=
          plan.read_only.end());
  }
}
