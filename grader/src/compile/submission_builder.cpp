#include "compile/submission_builder.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

#include "compile/build_seal.hpp"
#include "compile/compile_check_memo.hpp"
#include "compile/compiled_views.hpp"
#include "compile/compiled_views_memo.hpp"
#include "compile/compiler_limits.hpp"
#include "compile/content_hash.hpp"
#include "compile/diagnostics.hpp"
#include "compile/provided_headers.hpp"
#include "compile/submission_check.hpp"
#include "compile/submission_stager.hpp"
#include "compile/elf_object.hpp"
#include "compile/python_program.hpp"
#include "compile/library_interposition.hpp"
#include "compile/runtime_interposition.hpp"
#include "compile/sim_without_nvcc.hpp"
#include "compile/startup_code_check.hpp"
#include "compile/unchecked_code.hpp"
#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_header(const std::string& name) {
  const std::string ext = fs::path(name).extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".cuh" || ext == ".inl";
}

// The student's own headers travel with the listed sources, from sub-folders too (at
// the same relative path); never a copy of the fixed api.hpp, in any folder, so its
// signatures cannot be changed (a quoted include looks next to the including file first).
bool is_student_header(const std::string& path) {
  return is_header(path) && fs::path(path).filename() != "api.hpp";
}

// A Python submission is its listed sources only: the program folder holds no other.
bool nothing_optional(const std::string&) { return false; }

// The folder a student starts from, for messages: labs/<dir>/<the track's skeleton>.
std::string skeleton_folder(const LabSpec& lab) {
  const TrackSpec* track = find_track(lab, lab.track);
  return "labs/" + lab.dir.filename().string() + "/" + (track ? track->skeleton : "skeleton");
}

// A refused or missing file is the student's failure: a failed build naming the file.
void refuse(BuiltProgram& built, const LabSpec& lab, const fs::path& submission,
            const StagingResult& staging) {
  std::string message = staging.reason;
  if (staging.missing) {
    message += " in " + submission.string() + ": a " + lab.id + " submission must contain it " +
               "(start from " + skeleton_folder(lab) + "/" + staging.refused_file + ")";
  }
  built.result.log = message;
  built.result.diagnostics.push_back({(submission / staging.refused_file).string(), 0, 0,
                                      "error", message});
}

// A staged header named as one the grader's include folders hold, which the compiler
// would read in its place (compile/provided_headers); nothing for Python.
std::optional<ShadowingFile> shadowing_file(const Toolchain& toolchain, BuildTarget target,
                                            const StagingResult& staging) {
  if (target == BuildTarget::python) return std::nullopt;
  std::vector<ProvidedHeaders> provided{{toolchain.harness_include, "the lab harness"}};
  if (target != BuildTarget::sim) return find_shadowing_file(staging.staged, provided, "");
  for (const fs::path& dir : toolchain.sim.include_dirs) provided.push_back({dir, "the simulator"});
  return find_shadowing_file(staging.staged, provided, "sim");
}

// The submission's files staged, a header that would replace one of the grader's
// refused as a staged file that is not allowed.
StagingResult stage_checked(const LabSpec& lab, const Toolchain& toolchain,
                            const fs::path& submission_dir, BuildTarget target,
                            const fs::path& stage) {
  StagingResult staging = stage_submission_files(
      submission_dir, lab.sources,
      target == BuildTarget::python ? nothing_optional : is_student_header, stage);
  if (!staging.ok()) return staging;
  if (const auto shadowing = shadowing_file(toolchain, target, staging)) {
    staging.refused_file = shadowing->staged;
    staging.reason = shadowing->message;
  }
  return staging;
}

// Sim check builds: no code the instrumentation leaves out (compile/unchecked_code), read
// from what the compiler saw of `src`. The message, or empty (also for a source the plan
// did not preprocess: not a check build, or not a .cu file).
std::string unchecked_code_refusal(const fs::path& stage, const std::string& src, const fs::path& submission) {
  const fs::path preprocessed = sim_preprocessed_path(stage, src);
  std::error_code ec;
  if (!fs::is_regular_file(preprocessed, ec)) return "";
  std::ifstream in(preprocessed, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return "the preprocessed " + src + " could not be read: " + preprocessed.string();
  const std::string prefix = stage.string() + "/";
  const auto found = find_unchecked_code(text.str(), prefix);
  if (!found) return "";
  std::string display = found->file.substr(prefix.size());
  // A rewritten header's copy (sim/x.cuh) names its original for the student.
  if (display.starts_with("sim/")) display.erase(0, 4);
  return unchecked_code_message(*found, (submission / display).string());
}

// Sim builds: the student's objects must not run code before the simulator reads its
// settings (compile/startup_code_check), nor replace code the simulator runs
// (compile/runtime_interposition). The message, or empty.
std::string sim_build_refusal(const LabSpec& lab, const Toolchain& toolchain, const fs::path& stage,
                              const fs::path& submission) {
  RuntimeNames runtime;
  try {
    runtime = runtime_names_of(parse_elf_object(read_object_file(toolchain.sim.library)));
  } catch (const std::exception& e) {
    throw ToolError(kExitEnvironment, "the simulator runtime " + toolchain.sim.library.string() +
                                          " cannot be read (rebuild parlab): " + e.what());
  }
  for (const std::string& src : lab.sources) {
    const fs::path object = (stage / "sim" / src).string() + ".o";
    std::vector<std::string> early;
    std::vector<std::string> interposed;
    try {
      const std::string bytes = read_object_file(object);
      early = early_startup_sections_in(bytes);
      interposed = interposing_definitions(parse_elf_object(bytes), runtime);
    } catch (const std::exception& e) {
      return "the compiled " + src + " could not be checked: " + e.what();
    }
    if (!interposed.empty()) {
      std::string names;
      for (const std::string& name : interposed) names += (names.empty() ? "" : ", ") + name;
      return (submission / src).string() + ": defines " + names + ", which the simulator "
             "runtime uses itself: in sim mode your code may not replace it (the simulator's "
             "checks would run your version). Rename it, or use the standard one.";
    }
    if (early.empty()) {
      if (std::string unchecked = unchecked_code_refusal(stage, src, submission); !unchecked.empty()) return unchecked;
      continue;
    }
    std::string sections;
    for (const std::string& name : early) sections += (sections.empty() ? "" : ", ") + name;
    return (submission / src).string() + ": code that runs before the simulator starts (" +
           sections + ": a constructor with a priority of " +
           std::to_string(kSimSettingsPriority) + " or lower, code in .preinit_array, .init "
           "or .ctors, or an indirect function) is not allowed in sim mode: the simulator "
           "must set itself up first. Drop the priority (a plain constructor, or none: CUDA "
           "code rarely needs one).";
  }
  return "";
}

// Sim builds without nvcc: no view to compare, so a conditional that nvcc and the
// simulator may decide apart leaves the tests to a GPU (compile/sim_without_nvcc).
bool reads_what_only_a_gpu_decides(const LabSpec& lab, const Toolchain& toolchain, const fs::path& stage,
                                   const fs::path& submission, BuildResult& result) {
  const bool every_source_cu = std::all_of(lab.sources.begin(), lab.sources.end(),
                                           [](const std::string& src) { return src.ends_with(".cu"); });
  const std::optional<ConditionalRead> read = conditional_only_a_gpu_decides(toolchain, stage, every_source_cu);
  if (!read) return false;
  const std::string display = (submission / read->file).string();
  const std::string message = conditional_read_message(*read, display);
  result.log = message + "\n" + result.log;
  result.diagnostics.insert(result.diagnostics.begin(), {display, read->line, 0, "error", message});
  result.needs_gpu = conditional_read_feature(*read, read->file);
  result.needs_gpu_cause = BuildResult::NeedsGpuCause::compiled_lines;
  return true;
}

// Sim builds: the lines the simulator compiled are the lines a GPU build compiles, for
// the host and for the GPU architectures compared (compile/compiled_views; without nvcc,
// reads_what_only_a_gpu_decides above). A difference is
// written into `result` (first in the log, and as what the tests need a GPU for);
// true when there was one.
bool differs_from_gpu_build(const LabSpec& lab, const Toolchain& toolchain, const fs::path& stage,
                            const fs::path& submission, const CompiledViewsMemo& views_memo,
                            BuildResult& result) {
  if (toolchain.nvcc.empty()) {
    return views_wanted() && reads_what_only_a_gpu_decides(lab, toolchain, stage, submission, result);
  }
  const std::vector<CompiledView> views = sim_compiled_views(lab, toolchain, stage);
  for (const std::string& src : lab.sources) {
    if (views_memo.agreed_before(src)) continue;  // its views were not made this time
    std::optional<ViewDifference> d;
    try {
      d = compare_compiled_views(views, src, stage);
    } catch (const std::runtime_error& e) {
      throw ToolError(kExitInternal, std::string("sim build: ") + e.what());
    }
    if (!d) {
      views_memo.remember_agreed(src);
      continue;
    }
    const std::string prefix = stage.string() + "/";
    std::string file = fs::path(d->file).lexically_normal().string();
    file = file.starts_with(prefix) ? file.substr(prefix.size()) : src;
    const std::string display = (submission / file).string();
    const std::string message = view_difference_message(*d, display);
    result.log = message + "\n" + result.log;
    result.diagnostics.insert(result.diagnostics.begin(), {display, d->line, 0, "error", message});
    result.needs_gpu = view_difference_feature(*d, file);
    result.needs_gpu_cause = BuildResult::NeedsGpuCause::compiled_lines;
    return true;
  }
  return false;
}

// A build compares only the views it made itself (compile/compiled_views).
void forget_previous_views(const LabSpec& lab, const Toolchain& toolchain, const fs::path& stage) {
  for (const CompiledView& view : sim_compiled_views(lab, toolchain, stage)) {
    fs::remove(view.output);
    fs::remove(view.output.string() + ".failed");
  }
}

// GPU builds: the student's objects must not replace a library function the driver,
// the harness or the CUDA runtime calls (compile/library_interposition). The message,
// or empty.
std::string cuda_build_refusal(const LabSpec& lab, const Toolchain& toolchain, const fs::path& stage,
                               const fs::path& submission, const fs::path& exe) {
  std::set<std::string> library_names;
  try {
    const std::vector<fs::path> search = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                          "/lib64", "/usr/lib64",
                                          toolchain.nvcc.parent_path().parent_path() / "lib64"};
    library_names = names_libraries_define(parse_elf_object(read_object_file(exe)), search);
  } catch (const std::exception& e) {
    return "the built program could not be checked: " + std::string(e.what());
  }
  for (const std::string& src : lab.sources) {
    std::vector<std::string> replaced;
    try {
      replaced = library_interposing_definitions(
          parse_elf_object(read_object_file(cuda_object_path(stage, src))), library_names);
    } catch (const std::exception& e) {
      return "the compiled " + src + " could not be checked: " + e.what();
    }
    if (replaced.empty()) continue;
    std::string names;
    for (const std::string& name : replaced) names += (names.empty() ? "" : ", ") + name;
    return (submission / src).string() + ": defines " + names + ", a function of a library " +
           "the program links (the CUDA runtime, the C library): your definition would replace " +
           "it for the grader's timing and checks too. Rename it (C++ functions in a namespace " +
           "never clash).";
  }
  return "";
}

// What the target's checks of the built objects refuse (empty: nothing; host and
// Python builds have no such check).
std::string build_refusal(BuildTarget target, const LabSpec& lab, const Toolchain& toolchain,
                          const fs::path& stage, const fs::path& submission, const fs::path& exe) {
  if (target == BuildTarget::sim) return sim_build_refusal(lab, toolchain, stage, submission);
  if (target == BuildTarget::cuda) return cuda_build_refusal(lab, toolchain, stage, submission, exe);
  return "";
}

// A sim build whose sources compiled but whose link failed: the objects' refusal (a
// replaced memcpy fails the link as a duplicate of the runtime's checked copy) said
// first, in place of the linker's words. Empty when an object is missing or none is refused.
std::string refusal_of_failed_link(BuildTarget target, const LabSpec& lab, const Toolchain& toolchain,
                                   const fs::path& stage, const fs::path& submission) {
  if (target != BuildTarget::sim) return "";
  for (const std::string& src : lab.sources) {
    std::error_code ec;
    if (!fs::is_regular_file((stage / "sim" / src).string() + ".o", ec)) return "";
  }
  return sim_build_refusal(lab, toolchain, stage, submission);
}

// Reuse the executable when the same sources were built with the same commands
// against the same libraries (warm rebuilds cost nothing).
std::string build_key(const std::string& command, const CompilePlan& plan,
                      const StagingResult& staging, const fs::path& stage) {
  ContentHash key;
  key.add(command);
  for (const fs::path& input : plan.inputs) key.add_file_stamp(input);
  // Every staged file with its relative path (a header moved between sub-folders is a
  // different build).
  std::vector<std::string> staged = staging.staged;
  std::sort(staged.begin(), staged.end());
  for (const std::string& name : staged) key.add(name).add_file(stage / name);
  return key.hex();
}

// The key file holds the build's key, then the build folder's SHA-256 at build time; a
// build is reused only when both still hold and the folder is still the grader's.
bool built_before(const fs::path& build_dir, const fs::path& exe, const fs::path& key_file,
                  const std::string& key) {
  if (!fs::exists(exe)) return false;
  std::ifstream in(key_file);
  std::string old, digest;
  return std::getline(in, old) && old == key && std::getline(in, digest) &&
         build_intact(build_dir, exe, key_file, digest);
}

// Where a check step's pass is remembered: what it checks, the folder it checks in.
struct CheckMemoUse {
  const CompileCheckMemo& memo;
  const fs::path& stage;
  const std::vector<std::string>& staged;
  std::vector<fs::path> include_dirs;
  const CompiledViewsMemo& views;
};

// The check's key, or empty when an input cannot be read (the check then just runs).
std::string check_key(const CompileStep& step, const CheckMemoUse& use) {
  try {
    return compile_check_key(step, use.stage, use.staged, use.include_dirs);
  } catch (const std::exception&) {
    return "";
  }
}

// Runs the plan's steps in the sandbox until one fails; the last step's result, the
// whole log and the compiler's diagnostics text. A check step that passed before on the
// same inputs is not run again, and the log says so.
RunResult run_compile_steps(const CompilePlan& plan, ProcessRunner& runner, const fs::path& build_dir,
                            const ResourceLimits& limits, const CheckMemoUse& memo, std::string& log,
                            std::string& diagnostics_text) {
  RunResult run;
  std::set<std::string> said_agreed;
  for (const CompileStep& step : plan.steps) {
    if (!step.views_of.empty() && memo.views.agreed_before(step.views_of)) {
      if (said_agreed.insert(step.views_of).second) {
        log += "(the compiled views of " + step.views_of + ": agreed before on the same sources)\n";
      }
      continue;
    }
    const std::string key = step.checks_source.empty() ? "" : check_key(step, memo);
    if (memo.memo.passed_before(key)) {
      log += "(" + step.program.filename().string() + "'s check of " + step.checks_source +
             ": passed before on the same sources)\n";
      continue;
    }
    RunRequest req;
    req.executable = step.program;
    req.args = step.args;
    req.work_dir = build_dir;
    req.env = {{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"LANG", "C"}, {"LC_ALL", "C"},
               {"TMPDIR", "/tmp"}};
    req.limits = limits;
    req.view.read_only = plan.read_only;
    req.view.read_write = {build_dir};
    run = runner.run(req);
    log += run.stderr_text + run.stdout_text;
    diagnostics_text += run.stderr_text;
    if (run.stderr_truncated || run.stdout_truncated) log += "\n[compiler output truncated]";
    if (run.outcome != RunOutcome::ok) break;
    memo.memo.remember_passed(key);
  }
  return run;
}

// A refusal said first and as a diagnostic, so it is not lost below pages of noise.
void put_first(BuildResult& result, const fs::path& submission_dir, const std::string& why) {
  result.log = why + "\n" + result.log;
  result.diagnostics.insert(result.diagnostics.begin(), {submission_dir.string(), 0, 0, "error", why});
}

// The checks of a finished build: a refusal (build_refusal) first, then, for a sim
// build, lines that differ from a GPU build's. True when one said no, into `result`.
bool refuses_built(BuildTarget target, const LabSpec& lab, const Toolchain& toolchain, const fs::path& stage,
                   const fs::path& submission, const fs::path& exe, const CompiledViewsMemo& views_memo,
                   BuildResult& result) {
  if (const std::string refused = build_refusal(target, lab, toolchain, stage, submission, exe); !refused.empty()) {
    put_first(result, submission, refused);
    return true;
  }
  return target == BuildTarget::sim &&
         differs_from_gpu_build(lab, toolchain, stage, submission, views_memo, result);
}

BuiltProgram build_checked(const LabSpec& lab, const Toolchain& toolchain,
                           const fs::path& submission_dir, const fs::path& work_dir,
                           ProcessRunner& runner, BuildTarget target, const fs::path& check_memo) {
  BuiltProgram built;
  // One folder per target: a sim build never reuses a GPU build's executable.
  const fs::path build_dir = work_dir / to_string(target);
  const fs::path stage = build_dir / "src";
  const fs::path bin = build_dir / "bin";
  const fs::path exe = bin / (lab.id + "_submission");
  CompilePlan plan = plan_compile(target, lab, toolchain, stage, exe);
  fs::create_directories(bin);

  const StagingResult staging = stage_checked(lab, toolchain, submission_dir, target, stage);
  if (!staging.ok()) {
    refuse(built, lab, submission_dir, staging);
    return built;
  }
  // The plan was made before staging (to fail early); make it again now that the
  // staged files it lists exist.
  plan = plan_compile(target, lab, toolchain, stage, exe);
  for (const CompileStep& step : plan.steps) {
    built.result.command += (built.result.command.empty() ? "" : " && ") + join_command(step);
  }
  // The sandbox is part of the key: a build is never shared between sandbox levels.
  const std::string key =
      build_key(built.result.command + "\nsandbox: " + runner.sandbox_name(), plan, staging, stage);
  const fs::path key_file = bin / "build.key";
  if (built_before(build_dir, exe, key_file, key)) {
    built.result.ok = true;
    built.result.log = "(cached: sources unchanged since the last build)";
    built.executable = exe;
    built.cached = true;
    return built;
  }
  fs::remove(exe);
  fs::remove(key_file);
  fs::create_directories(stage / "sim");
  forget_previous_views(lab, toolchain, stage);

  auto t0 = std::chrono::steady_clock::now();
  std::string log;
  std::string diagnostics_text;
  const ResourceLimits limits = compiler_limits(target);
  const CompileCheckMemo memo(check_memo);
  const std::vector<fs::path> include_dirs{toolchain.lab(lab.id).dir, toolchain.harness_include};
  const CompiledViewsMemo views_memo(check_memo.empty() ? fs::path() : check_memo / "views", plan, stage,
                                     staging.staged, include_dirs, toolchain.sim.include_dirs);
  const CheckMemoUse memo_use{memo, stage, staging.staged, include_dirs, views_memo};
  const RunResult run = run_compile_steps(plan, runner, build_dir, limits, memo_use, log, diagnostics_text);
  built.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Rewritten files name the student's file in #line directives; map both folders.
  built.result.log = map_paths(map_paths(log, stage / "sim", submission_dir), stage, submission_dir);
  built.result.diagnostics =
      parse_gcc_diagnostics(map_paths(diagnostics_text, stage / "sim", submission_dir), stage,
                            submission_dir);
  if (run.outcome == RunOutcome::ok && target == BuildTarget::python) {
    assemble_python_program(toolchain.source_dir / "harness" / "python", toolchain.lab(lab.id).dir,
                            stage, lab.sources, exe);
  }
  if (run.outcome != RunOutcome::ok || !fs::exists(exe)) {
    // A limit the compiler met is said first and as a diagnostic, so it is not lost
    // below pages of "out of memory" noise or a truncated log.
    std::string why = compiler_stop_reason(run, limits);
    if (why.empty()) why = refusal_of_failed_link(target, lab, toolchain, stage, submission_dir);
    if (!why.empty()) put_first(built.result, submission_dir, why);
    return built;
  }
  if (refuses_built(target, lab, toolchain, stage, submission_dir, exe, views_memo, built.result)) {
    fs::remove(exe);
    return built;
  }
  // Before any run: from here on no run can change what a later grading reuses.
  freeze_build(build_dir);
  std::ofstream(key_file) << key << "\n" << build_digest(bin, key_file) << "\n";
  built.result.ok = true;
  built.executable = exe;
  return built;
}

}  // namespace

BuiltProgram build_submission(const LabSpec& lab, const Toolchain& toolchain,
                              const fs::path& submission_dir, const fs::path& work_dir,
                              ProcessRunner& runner, BuildTarget target, const fs::path& check_memo) {
  // Names checked before building (compile/submission_check): a missing or misnamed
  // source is said as such, never as a compile error; extra sources are listed.
  SubmissionCheck check = check_submission(submission_dir, lab.sources);
  // The reference folder holds its own helpers by design (`grade --reference`).
  std::error_code ec;
  if (fs::equivalent(submission_dir, toolchain.lab(lab.id).reference_dir, ec)) check.not_compiled.clear();
  const std::string skeleton = skeleton_folder(lab);
  std::vector<Diagnostic> said =
      submission_check_diagnostics(check, submission_dir, lab.id, lab.sources, skeleton);
  if (!check.ok()) {
    BuiltProgram refused;
    refused.result.diagnostics = said;
    for (const Diagnostic& d : said) refused.result.log += d.message + "\n";
    return refused;
  }
  BuiltProgram built =
      build_checked(lab, toolchain, submission_dir, work_dir, runner, target, check_memo);
  built.result.diagnostics.insert(built.result.diagnostics.end(), said.begin(), said.end());
  return built;
}

}  // namespace parlab::grader
