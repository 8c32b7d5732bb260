#include "compile/compile_steps.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "compile/architecture_names.hpp"
#include "compile/python_program.hpp"
#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool has_extension(const fs::path& p, std::initializer_list<const char*> exts) {
  for (const char* e : exts) {
    if (p.extension() == e) return true;
  }
  return false;
}

void append(std::vector<std::string>& args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
}

void require_file(const fs::path& file, const std::string& what, const Toolchain& tc) {
  if (file.empty() || !fs::exists(file)) {
    throw EnvironmentError(what + " is missing (" + (file.empty() ? "not built" : file.string()) +
                           "); run: cmake --build " + tc.build_dir.string());
  }
}

// What the compiler may see besides the system and its own build folder: the lab's
// public folder (api.hpp, the driver's sources, the skeleton), the harness headers and
// the prebuilt files it links, each bound as a single file. Never a folder of build
// products: the ones the libraries sit in also hold every lab's reference executables
// and the simulator's rewritten reference sources.
std::vector<fs::path> public_view(const LabToolchain& labtc, const Toolchain& tc,
                                  std::initializer_list<fs::path> link_inputs) {
  std::vector<fs::path> view = {labtc.dir, tc.harness_include};
  view.insert(view.end(), link_inputs.begin(), link_inputs.end());
  return view;
}

CompilePlan host_plan(const LabSpec& lab, const Toolchain& tc, const fs::path& stage,
                      const fs::path& exe) {
  const LabToolchain& labtc = tc.lab(lab.id);
  if (!fs::exists(tc.cxx)) {
    throw EnvironmentError("C++ compiler " + tc.cxx + " not found (re-run cmake)");
  }
  CompileStep link{tc.cxx, {"-std=" + tc.cxx_standard}};
  link.args.insert(link.args.end(), tc.cxx_flags.begin(), tc.cxx_flags.end());
  link.args.insert(link.args.end(), {"-I" + stage.string(), "-I" + labtc.dir.string(),
                                     "-I" + tc.harness_include.string(),
                                     "-fdiagnostics-color=never", "-o", exe.string()});
  for (const std::string& src : lab.sources) link.args.push_back((stage / src).string());
  link.args.push_back(labtc.driver_lib.string());
  link.args.push_back(tc.harness_lib.string());
  for (const std::string& l : labtc.libs) link.args.push_back("-l" + l);
  return {{link},
          public_view(labtc, tc, {labtc.driver_lib, tc.harness_lib}),
          {labtc.driver_lib, tc.harness_lib, tc.cxx}};
}

}  // namespace

fs::path cuda_object_path(const fs::path& stage, const std::string& source) {
  return stage / (source + ".gpu.o");
}

namespace {

// nvcc compiles for the GPU in this machine (the grader only builds for a GPU it found).
CompilePlan cuda_plan(const LabSpec& lab, const Toolchain& tc, const fs::path& stage,
                      const fs::path& exe) {
  const LabToolchain& labtc = tc.lab(lab.id);
  if (tc.nvcc.empty()) {
    throw EnvironmentError("this build of parlab has no nvcc, so it cannot compile for the "
                           "GPU; use --device sim, or install the CUDA toolkit and re-run cmake");
  }
  require_file(labtc.driver_lib, "the CUDA build of the " + lab.id + " driver", tc);
  // Each source compiled to its own object (cuda_object_path), which the builder reads
  // before any run (compile/library_interposition), then linked.
  std::vector<CompileStep> steps;
  CompileStep link{tc.nvcc, {"-std=c++20", "-O3", "-arch=native", "-o", exe.string()}};
  for (const std::string& src : lab.sources) {
    const std::string object = cuda_object_path(stage, src).string();
    steps.push_back({tc.nvcc, {"-std=c++20", "-O3", "-arch=native", "-lineinfo",
                               "-I" + stage.string(), "-I" + labtc.dir.string(),
                               "-I" + tc.harness_include.string(), "-c", (stage / src).string(),
                               "-o", object}});
    link.args.push_back(object);
  }
  link.args.push_back(labtc.driver_lib.string());
  link.args.push_back(tc.harness_lib.string());
  for (const std::string& l : labtc.libs) link.args.push_back("-l" + l);
  // The child gets only PATH, HOME and LANG (no LD_LIBRARY_PATH): a submission linked
  // with -lcublas must find the toolkit's libraries by itself where ld.so.conf does not
  // list them (NVIDIA's tarball or image layout).
  if (!labtc.libs.empty()) {
    const fs::path cuda_lib = tc.nvcc.parent_path().parent_path() / "lib64";
    if (fs::is_directory(cuda_lib)) link.args.push_back("-Xlinker=-rpath=" + cuda_lib.string());
  }
  link.args.push_back("-lpthread");
  steps.push_back(std::move(link));
  return {std::move(steps),
          public_view(labtc, tc, {labtc.driver_lib, tc.harness_lib}),
          {labtc.driver_lib, tc.harness_lib, tc.nvcc}};
}

// PARLAB_SIM_CHECK=0 (benchmarks: bench/sim_check_cost.sh) builds without the race
// check's instrumentation; grading/sim_mode then leaves the check off too.
bool sim_check_build() {
  const char* value = std::getenv("PARLAB_SIM_CHECK");
  return value == nullptr || std::string(value) != "0";
}

// PARLAB_SIM_DIVERGENCE=0 (benchmarks: bench/sim_check_cost.sh) leaves the branch-divergence
// counter's coverage hook out of the check build.
bool sim_divergence_build() {
  const char* value = std::getenv("PARLAB_SIM_DIVERGENCE");
  return value == nullptr || std::string(value) != "0";
}

// PARLAB_SIM_NVCC_CHECK=0 skips the nvcc check of a sim build (docs/simulation.md).
bool nvcc_check_wanted() {
  const char* value = std::getenv("PARLAB_SIM_NVCC_CHECK");
  return value == nullptr || std::string(value) != "0";
}

// The architectures whose device view a sim build compares (compile/architecture_names):
// every one nvcc supports where a student's file may read the architecture, else sm_90
// (the GPU parlab's own GPU checks run on), or the first nvcc lists when it has none.
std::vector<std::string> device_view_architectures(const Toolchain& tc, const fs::path& stage) {
  if (tc.nvcc_architectures.empty() || sources_may_read_gpu_architecture(stage)) return tc.nvcc_architectures;
  const bool has_90 = std::find(tc.nvcc_architectures.begin(), tc.nvcc_architectures.end(), "900") !=
                      tc.nvcc_architectures.end();
  return {has_90 ? std::string("900") : tc.nvcc_architectures.front()};
}

// Rewritten copies of every CUDA file (headers too: they may hold kernels and
// launches) go to stage/sim/, at the same relative path (common/helpers.cuh to
// sim/common/helpers.cuh), so a quoted #include from a rewritten file finds the
// rewritten header first: "common/helpers.cuh" from sim/lab.cu.cpp, "scan.cuh" from
// sim/common/helpers.cuh.
void add_rewrite_steps(const Toolchain& tc, const fs::path& stage, const fs::path& out_dir,
                       CompilePlan& plan) {
  std::vector<fs::path> cuda_files;  // relative to the stage
  std::error_code not_staged_yet;
  for (fs::recursive_directory_iterator it(stage, not_staged_yet), end; !not_staged_yet && it != end;
       it.increment(not_staged_yet)) {
    if (it.depth() == 0 && it->path() == out_dir) {
      it.disable_recursion_pending();  // the rewritten copies of a previous build
      continue;
    }
    if (it->is_regular_file() && has_extension(it->path(), {".cu", ".cuh"})) {
      cuda_files.push_back(it->path().lexically_relative(stage));
    }
  }
  std::sort(cuda_files.begin(), cuda_files.end());
  for (const fs::path& p : cuda_files) {
    fs::path out = out_dir / p;
    if (p.extension() == ".cu") out += ".cpp";
    plan.steps.push_back({tc.sim.rewrite_tool, {(stage / p).string(), out.string()}});
  }
}

// Where nvcc is installed (even without a GPU), it checks the CUDA sources first, so
// code a GPU build rejects (a helper without __device__, std::max in a kernel) fails
// here too, with nvcc's message. Nothing of it is linked or run. `-cuda` runs nvcc's
// front ends on both sides, the device compile and ptxas, and stops before the host
// compiler compiles the host half (a quarter of the check's time, 0.42 of 1.8 s for
// lab04's sum_reduce.cu): the sim build's own g++ compile sees that host code anyway.
void add_nvcc_check(const LabSpec& lab, const Toolchain& tc, const fs::path& stage, CompilePlan& plan) {
  if (tc.nvcc.empty() || !nvcc_check_wanted()) return;
  const LabToolchain& labtc = tc.lab(lab.id);
  for (const std::string& src : lab.sources) {
    if (!has_extension(stage / src, {".cu"})) continue;
    plan.steps.push_back({tc.nvcc,
                          {"-std=c++20", "-arch=sm_80", "-I" + stage.string(), "-I" + labtc.dir.string(),
                           "-I" + tc.harness_include.string(), "-cuda", (stage / src).string(), "-o",
                           "/dev/null"},
                          src});
  }
  plan.inputs.push_back(tc.nvcc);
}

// Runs nvcc once per GPU view, four at a time: $1 nvcc, $2 the count of the arguments
// every view shares, then those, then pairs of (the view's -Xcompiler defines, its
// output). A view that stops leaves its messages in OUTPUT.failed; the step itself
// never fails for a view (compile/compiled_views reads what each left).
constexpr const char* kGpuViewsScript =
    "nvcc=$1; count=$2; shift 2; common=(\"${@:1:count}\"); shift \"$count\"; running=0\n"
    "while [ $# -ge 2 ]; do\n"
    "  ( \"$nvcc\" \"${common[@]}\" \"$1\" -o \"$2\" 2>\"$2.failed\" && rm -f \"$2.failed\" ) &\n"
    "  shift 2; running=$((running + 1))\n"
    "  if [ \"$running\" -ge 4 ]; then wait -n; running=$((running - 1)); fi\n"
    "done\n"
    "wait\n";

// The GPU's views of `source` as nvcc's own preprocessor makes them, with the GPU
// build's flags (cuda_plan), conditional groups decided and macros left as written.
// __CUDA_ARCH__ is set to each view's architecture, or undefined for the host's view;
// __CUDA_ARCH_LIST__ (the architectures a GPU build targets, which depends on the GPU)
// is defined as 1/0, so an #if that reads its value stops the view ("division by zero
// in #if": a finding, compile/compiled_views) while #ifdef sees it defined as on a GPU.
// One step for all of them: a dozen sandboxed nvcc runs one after another cost more
// than the rest of a small build.
CompileStep gpu_views_step(const Toolchain& tc, const LabToolchain& labtc, const fs::path& stage,
                           const std::string& src, const std::vector<CompiledView>& views) {
  const fs::path source = stage / src;
  const std::vector<std::string> common = {
      "-std=c++20", "-O3", "-arch=sm_80", "-lineinfo", "-I" + stage.string(), "-I" + labtc.dir.string(),
      "-I" + tc.harness_include.string(), "-E", "-Xcompiler=-fdirectives-only", source.string()};
  CompileStep step{"/bin/bash", {"-c", kGpuViewsScript, "parlab-gpu-views", tc.nvcc.string(),
                                 std::to_string(common.size())}};
  append(step.args, common);
  step.views_of = src;
  for (const CompiledView& view : views) {
    if (view.source != src || view.kind == ViewKind::sim) continue;
    std::string defines = "-Xcompiler=-U__CUDA_ARCH_LIST__";
    if (has_extension(source, {".cu"})) {
      defines += ",-U__CUDA_ARCH__,-D__CUDA_ARCH_LIST__=1/0";
      defines += view.kind == ViewKind::gpu_host ? ",-UCUDA_DOUBLE_MATH_FUNCTIONS"  // the device pass's only other macro
                                                 : ",-D__CUDA_ARCH__=" + view.arch + "0";  // sm_90: 900
    }
    step.args.insert(step.args.end(), {defines, view.output.string()});
  }
  return step;
}

// The simulator's view: its own compile of the source, preprocessed the same way, of
// the staged file rather than its rewritten copy: the rewriter keeps every directive but
// may move a rewritten launch's text onto its first line, which would read as lines the
// simulator left out.
CompileStep sim_view_step(const CompileStep& compile, const Toolchain& tc, const fs::path& staged,
                          const CompiledView& view) {
  CompileStep step;
  step.program = compile.program;
  step.views_of = view.source;
  const std::string pch = "-I" + tc.sim.prelude_pch_dir.string();
  for (std::size_t i = 0; i < compile.args.size(); ++i) {
    const std::string& arg = compile.args[i];
    if (!tc.sim.prelude_pch_dir.empty() && arg == pch) continue;  // a precompiled header holds no text
    if (arg == "-c" && i + 1 < compile.args.size()) {
      // -x c++: g++ takes an unknown extension (.cu) for a linker input
      step.args.insert(step.args.end(), {"-E", "-fdirectives-only", "-x", "c++", staged.string()});
      ++i;
    } else if (arg == "-o" && i + 1 < compile.args.size()) {
      step.args.insert(step.args.end(), {"-o", view.output.string()});
      ++i;
    } else {
      step.args.push_back(arg);
    }
  }
  return step;
}

// Each CUDA source is compiled on its own with the race check's instrumentation (the
// hooks are parlab_sim's; the link must not name -fsanitize, which would add libtsan),
// then linked. Plain host sources (.cpp) are compiled as the reference's are: no kernel
// runs there, and instrumented host code would run 3x slower, which a CPU performance
// test of a GPU lab (lab02) would measure against an uninstrumented reference.
// docs/simulation.md, "Race check".
CompileStep sim_compile_step(const Toolchain& tc, const LabToolchain& labtc, const fs::path& stage,
                             const fs::path& out_dir, const std::string& src, const fs::path& object) {
  fs::path staged = stage / src;
  const fs::path source = has_extension(staged, {".cu"}) ? fs::path((out_dir / src).string() + ".cpp")
                                                         : staged;
  CompileStep compile{tc.cxx, {"-std=" + tc.cxx_standard}};
  compile.args.insert(compile.args.end(), tc.cxx_flags.begin(), tc.cxx_flags.end());
  // The check build's instrumentation (toolchain.json): g++ calls a hook before every load
  // and store (the race check, the memory-access counters) and at every basic block
  // (branch divergence).
  const bool check = sim_check_build() && has_extension(staged, {".cu"});
  if (check) {
    append(compile.args, tc.sim.check_flags);
    if (sim_divergence_build()) append(compile.args, tc.sim.divergence_flags);
  }
  // The prelude precompiled with exactly these flags: two thirds of a kernel file's
  // compile is reading the prelude's headers. Searched first; g++ falls back to the
  // header itself where the flags differ (benchmarks' PARLAB_SIM_* builds).
  if (check && !tc.sim.prelude_pch_dir.empty()) compile.args.push_back("-I" + tc.sim.prelude_pch_dir.string());
  compile.args.insert(compile.args.end(), {"-include", tc.sim.prelude});
  if (has_extension(staged, {".cu"})) {
    compile.args.insert(compile.args.end(),
                        {"-include", (fs::path(tc.sim.prelude).parent_path() / "nvcc_macros.hpp").string()});
  }
  for (const fs::path& dir : tc.sim.include_dirs) compile.args.push_back("-I" + dir.string());
  compile.args.insert(compile.args.end(), {"-iquote", stage.string(), "-I" + stage.string(),
                                           "-I" + labtc.dir.string(),
                                           "-I" + tc.harness_include.string(),
                                           "-fdiagnostics-color=never",
                                           // __FILE__ in the student's checks (PARLAB_CUDA_CHECK)
                                           // says streams.cu:38, not the grader's staging path
                                           "-fmacro-prefix-map=" + stage.string() + "/=",
                                           "-c", source.string(), "-o", object.string()});
  return compile;
}

// C++'s global allocation functions and the runtime's own (sim/src/runtime/kernel_new.cpp).
// A .cu object's references are renamed after its compile, so a `new` in a kernel gets
// device heap memory, as CUDA's in-kernel new does, and the checks see it as global
// memory; declaring them with assembler names in the prelude, as malloc is, makes
// g++ 12 crash (its -Wfree-nonheap-object pass). The runtime's own objects are never
// renamed, so its allocations stay the C++ library's.
constexpr std::pair<const char*, const char*> kSimAllocationRenames[] = {
    {"_Znwm", "parlab_sim_new"},
    {"_Znam", "parlab_sim_new_array"},
    {"_ZnwmRKSt9nothrow_t", "parlab_sim_new_nothrow"},
    {"_ZnamRKSt9nothrow_t", "parlab_sim_new_array_nothrow"},
    {"_ZnwmSt11align_val_t", "parlab_sim_new_aligned"},
    {"_ZnamSt11align_val_t", "parlab_sim_new_array_aligned"},
    {"_ZnwmSt11align_val_tRKSt9nothrow_t", "parlab_sim_new_aligned_nothrow"},
    {"_ZnamSt11align_val_tRKSt9nothrow_t", "parlab_sim_new_array_aligned_nothrow"},
    {"_ZdlPv", "parlab_sim_delete"},
    {"_ZdaPv", "parlab_sim_delete_array"},
    {"_ZdlPvm", "parlab_sim_delete_sized"},
    {"_ZdaPvm", "parlab_sim_delete_array_sized"},
    {"_ZdlPvSt11align_val_t", "parlab_sim_delete_aligned"},
    {"_ZdaPvSt11align_val_t", "parlab_sim_delete_array_aligned"},
    {"_ZdlPvmSt11align_val_t", "parlab_sim_delete_sized_aligned"},
    {"_ZdaPvmSt11align_val_t", "parlab_sim_delete_array_sized_aligned"},
    {"_ZdlPvRKSt9nothrow_t", "parlab_sim_delete_nothrow"},
    {"_ZdaPvRKSt9nothrow_t", "parlab_sim_delete_array_nothrow"},
    {"_ZdlPvSt11align_val_tRKSt9nothrow_t", "parlab_sim_delete_aligned_nothrow"},
    {"_ZdaPvSt11align_val_tRKSt9nothrow_t", "parlab_sim_delete_array_aligned_nothrow"},
};

CompileStep allocation_rename_step(const Toolchain& tc, const fs::path& object) {
  fs::path objcopy = tc.sim.objcopy;
  if (objcopy.empty()) objcopy = fs::path(tc.cxx).parent_path() / "objcopy";
  CompileStep step{objcopy, {}};
  for (const auto& [from, to] : kSimAllocationRenames) {
    step.args.push_back("--redefine-sym=" + std::string(from) + "=" + to);
  }
  step.args.push_back(object.string());
  return step;
}

// The same compile, preprocessed only (-E), for the grader to read what the compiler saw
// (compile/unchecked_code): code the check build's instrumentation would leave out.
CompileStep preprocess_step(const CompileStep& compile, const fs::path& preprocessed) {
  CompileStep step = compile;
  for (std::size_t i = 0; i + 1 < step.args.size(); ++i) {
    if (step.args[i] == "-c") step.args[i] = "-E";
    if (step.args[i] == "-o") step.args[i + 1] = preprocessed.string();
  }
  return step;
}

CompileStep sim_link_step(const Toolchain& tc, const LabToolchain& labtc, const fs::path& exe,
                          const std::vector<std::string>& objects) {
  CompileStep link{tc.cxx, {"-std=" + tc.cxx_standard}};
  link.args.insert(link.args.end(), tc.cxx_flags.begin(), tc.cxx_flags.end());
  // The runtime first: where it and the submission both hold a copy of the same inline
  // function, the linker keeps the first, so the runtime always runs its own code
  // (compile/runtime_interposition refuses a submission's non-inline copy). Local symbols
  // stay: the simulator names lines and launch code with addr2line -f on this executable.
  link.args.insert(link.args.end(), {"-o", exe.string(), tc.sim.library.string()});
  link.args.insert(link.args.end(), objects.begin(), objects.end());
  link.args.insert(link.args.end(), {labtc.sim_driver_lib.string(), tc.harness_lib.string()});
  for (const std::string& l : tc.sim.link) link.args.push_back(l);
  // Every symbol bound at start-up, so the GOT is in the RELRO part the runtime seals
  // with the code before the submission runs (sim config/code_seal): a GOT entry the
  // runtime calls through cannot be pointed at the submission's code.
  link.args.insert(link.args.end(), {"-Wl,-z,relro,-z,now", "-pthread"});
  return link;
}

CompilePlan sim_plan(const LabSpec& lab, const Toolchain& tc, const fs::path& stage,
                     const fs::path& exe) {
  const LabToolchain& labtc = tc.lab(lab.id);
  require_file(labtc.sim_driver_lib, "the simulation build of the " + lab.id + " driver", tc);
  require_file(tc.sim.rewrite_tool, "parlab-sim-rewrite", tc);
  CompilePlan plan;
  const fs::path out_dir = stage / "sim";
  add_rewrite_steps(tc, stage, out_dir, plan);
  add_nvcc_check(lab, tc, stage, plan);
  const std::vector<CompiledView> views = sim_compiled_views(lab, tc, stage);
  std::vector<std::string> objects;
  for (const std::string& src : lab.sources) {
    const fs::path object = (out_dir / src).string() + ".o";
    CompileStep compile = sim_compile_step(tc, labtc, stage, out_dir, src, object);
    for (const CompiledView& view : views) {
      if (view.source == src && view.kind == ViewKind::sim) {
        plan.steps.push_back(sim_view_step(compile, tc, stage / src, view));
      }
    }
    if (std::any_of(views.begin(), views.end(), [&](const CompiledView& v) { return v.source == src; })) {
      plan.steps.push_back(gpu_views_step(tc, labtc, stage, src, views));
    }
    if (sim_check_build() && has_extension(stage / src, {".cu"})) {
      plan.steps.push_back(preprocess_step(compile, sim_preprocessed_path(stage, src)));
    }
    plan.steps.push_back(std::move(compile));
    if (has_extension(stage / src, {".cu"})) plan.steps.push_back(allocation_rename_step(tc, object));
    objects.push_back(object.string());
  }
  plan.steps.push_back(sim_link_step(tc, labtc, exe, objects));
  plan.read_only = public_view(labtc, tc, {labtc.sim_driver_lib, tc.harness_lib, tc.sim.library,
                                           tc.sim.rewrite_tool});
  for (const fs::path& dir : tc.sim.include_dirs) plan.read_only.push_back(dir);
  if (!tc.sim.prelude_pch_dir.empty()) plan.read_only.push_back(tc.sim.prelude_pch_dir);
  plan.inputs.insert(plan.inputs.end(), {labtc.sim_driver_lib, tc.harness_lib, tc.sim.library,
                                         tc.sim.rewrite_tool, tc.cxx});
  return plan;
}

}  // namespace

bool views_wanted() {
  const char* value = std::getenv("PARLAB_SIM_VIEWS");
  return nvcc_check_wanted() && (value == nullptr || std::string(value) != "0");
}

std::vector<CompiledView> sim_compiled_views(const LabSpec& lab, const Toolchain& toolchain,
                                             const fs::path& stage) {
  std::vector<CompiledView> views;
  if (toolchain.nvcc.empty() || !views_wanted()) return views;
  for (const std::string& src : lab.sources) {
    const fs::path staged = stage / src;
    if (!has_extension(staged, {".cu", ".cpp", ".cc", ".cxx"})) continue;
    const auto view = [&](ViewKind kind, const std::string& arch) {
      CompiledView v{src, kind, arch, {}};
      v.output = (stage / "sim" / src).string() + ".view-" + view_name(v) + ".ii";
      views.push_back(std::move(v));
    };
    view(ViewKind::sim, "");
    view(ViewKind::gpu_host, "");
    if (!has_extension(staged, {".cu"})) continue;  // nvcc compiles a .cpp for the host only
    for (const std::string& arch : device_view_architectures(toolchain, stage)) {
      view(ViewKind::gpu_device, arch.substr(0, arch.size() - 1));  // __CUDA_ARCH__ 900: sm_90
    }
  }
  return views;
}

std::string view_name(const CompiledView& view) {
  switch (view.kind) {
    case ViewKind::sim: return "sim";
    case ViewKind::gpu_host: return "host";
    case ViewKind::gpu_device: return "sm_" + view.arch;
  }
  return "?";
}

fs::path sim_preprocessed_path(const fs::path& stage, const std::string& source) {
  return (stage / "sim" / source).string() + ".ii";
}

const char* to_string(BuildTarget target) {
  switch (target) {
    case BuildTarget::host: return "host";
    case BuildTarget::cuda: return "cuda";
    case BuildTarget::sim: return "sim";
    case BuildTarget::python: return "python";
  }
  return "?";
}

CompilePlan plan_compile(BuildTarget target, const LabSpec& lab, const Toolchain& toolchain,
                         const fs::path& stage, const fs::path& exe) {
  switch (target) {
    case BuildTarget::host: return host_plan(lab, toolchain, stage, exe);
    case BuildTarget::cuda: return cuda_plan(lab, toolchain, stage, exe);
    case BuildTarget::sim: return sim_plan(lab, toolchain, stage, exe);
    case BuildTarget::python: return python_plan(lab, toolchain, stage, exe);
  }
  throw ToolError(kExitInternal, "unknown build target");
}

std::string join_command(const CompileStep& step) {
  std::string out = step.program.string();
  for (const auto& a : step.args) out += " " + a;
  return out;
}

}  // namespace parlab::grader
