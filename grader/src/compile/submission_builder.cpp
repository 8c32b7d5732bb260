#include "compile/submission_builder.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "compile/content_hash.hpp"
#include "compile/diagnostics.hpp"
#include "cli/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_header(const fs::path& p) {
  auto ext = p.extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".cuh" || ext == ".inl";
}

// Copies the listed sources and the student's own headers (never a copy of the
// fixed api.hpp, so its signatures cannot be changed) into `stage`.
std::string stage_sources(const LabSpec& lab, const fs::path& submission, const fs::path& stage) {
  fs::remove_all(stage);
  fs::create_directories(stage);
  for (const std::string& src : lab.sources) {
    fs::path from = submission / src;
    if (!fs::is_regular_file(from)) {
      return src + " not found in " + submission.string() +
             ": a " + lab.id + " submission must contain it (start from labs/" +
             lab.dir.filename().string() + "/skeleton/" + src + ")";
    }
    fs::copy_file(from, stage / src, fs::copy_options::overwrite_existing);
  }
  for (const auto& entry : fs::directory_iterator(submission)) {
    if (entry.is_regular_file() && is_header(entry.path()) &&
        entry.path().filename() != "api.hpp") {
      fs::copy_file(entry.path(), stage / entry.path().filename(),
                    fs::copy_options::overwrite_existing);
    }
  }
  return "";
}

}  // namespace

BuiltProgram build_submission(const LabSpec& lab, const Toolchain& toolchain,
                              const fs::path& submission_dir, const fs::path& work_dir,
                              ProcessRunner& runner, BuildTarget target) {
  BuiltProgram built;
  // One folder per target: a sim build never reuses a GPU build's executable.
  const fs::path build_dir = work_dir / to_string(target);
  const fs::path stage = build_dir / "src";
  const fs::path bin = build_dir / "bin";
  const fs::path exe = bin / (lab.id + "_submission");
  CompilePlan plan = plan_compile(target, lab, toolchain, stage, exe);
  fs::create_directories(bin);

  if (std::string missing = stage_sources(lab, submission_dir, stage); !missing.empty()) {
    built.result.log = missing;
    built.result.diagnostics.push_back({(submission_dir / lab.sources.front()).string(), 0, 0,
                                        "error", missing});
    return built;
  }
  // The plan was made before staging (to fail early); make it again now that the
  // staged files it lists exist.
  plan = plan_compile(target, lab, toolchain, stage, exe);
  for (const CompileStep& step : plan.steps) {
    built.result.command += (built.result.command.empty() ? "" : " && ") + join_command(step);
  }

  // Reuse the executable when the same sources were built with the same commands
  // against the same libraries (warm rebuilds cost nothing).
  ContentHash key;
  key.add(built.result.command);
  for (const fs::path& input : plan.inputs) key.add_file_stamp(input);
  std::vector<fs::path> staged;
  for (const auto& entry : fs::directory_iterator(stage)) {
    if (entry.is_regular_file()) staged.push_back(entry.path());
  }
  std::sort(staged.begin(), staged.end());
  for (const fs::path& f : staged) key.add(f.filename().string()).add_file(f);
  const fs::path key_file = bin / "build.key";
  if (fs::exists(exe)) {
    std::ifstream in(key_file);
    std::string old;
    if (std::getline(in, old) && old == key.hex()) {
      built.result.ok = true;
      built.result.log = "(cached: sources unchanged since the last build)";
      built.executable = exe;
      built.cached = true;
      return built;
    }
  }
  fs::remove(exe);
  fs::create_directories(stage / "sim");

  auto t0 = std::chrono::steady_clock::now();
  std::string log;
  std::string diagnostics_text;
  RunResult run;
  for (const CompileStep& step : plan.steps) {
    RunRequest req;
    req.executable = step.program;
    req.args = step.args;
    req.work_dir = build_dir;
    req.env = {{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"LANG", "C"}, {"LC_ALL", "C"},
               {"TMPDIR", "/tmp"}};
    req.limits.wall_seconds = 180;
    req.limits.cpu_seconds = 300;
    req.limits.address_space_mb = 0;  // cc1plus of a big template may need a lot
    req.limits.file_size_mb = 512;
    req.limits.max_processes = 64;
    req.limits.output_bytes = 64 * 1024;
    req.view.read_only = plan.read_only;
    req.view.read_write = {build_dir};
    run = runner.run(req);
    log += run.stderr_text + run.stdout_text;
    diagnostics_text += run.stderr_text;
    if (run.stderr_truncated || run.stdout_truncated) log += "\n[compiler output truncated]";
    if (run.outcome != RunOutcome::ok) break;
  }
  built.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Rewritten files name the student's file in #line directives; map both folders.
  built.result.log = map_paths(map_paths(log, stage / "sim", submission_dir), stage, submission_dir);
  built.result.diagnostics =
      parse_gcc_diagnostics(map_paths(diagnostics_text, stage / "sim", submission_dir), stage,
                            submission_dir);
  if (run.outcome != RunOutcome::ok || !fs::exists(exe)) {
    if (run.outcome != RunOutcome::ok && run.outcome != RunOutcome::nonzero_exit) {
      built.result.log += "\ncompiler stopped: " + run.reason;
    }
    return built;
  }
  std::ofstream(key_file) << key.hex() << "\n";
  built.result.ok = true;
  built.executable = exe;
  return built;
}

}  // namespace parlab::grader
