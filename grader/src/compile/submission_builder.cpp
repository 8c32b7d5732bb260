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

std::string join_command(const std::string& exe, const std::vector<std::string>& args) {
  std::string out = exe;
  for (const auto& a : args) out += " " + a;
  return out;
}

}  // namespace

BuiltProgram build_submission(const LabSpec& lab, const Toolchain& toolchain,
                              const fs::path& submission_dir, const fs::path& work_dir,
                              ProcessRunner& runner) {
  BuiltProgram built;
  const LabToolchain& labtc = toolchain.lab(lab.id);
  if (!fs::exists(toolchain.cxx)) {
    throw EnvironmentError("C++ compiler " + toolchain.cxx + " not found (re-run cmake)");
  }
  const fs::path stage = work_dir / "src";
  const fs::path bin = work_dir / "bin";
  fs::create_directories(bin);
  const fs::path exe = bin / (lab.id + "_submission");

  if (std::string missing = stage_sources(lab, submission_dir, stage); !missing.empty()) {
    built.result.log = missing;
    built.result.diagnostics.push_back({(submission_dir / lab.sources.front()).string(), 0, 0,
                                        "error", missing});
    return built;
  }

  std::vector<std::string> args = {"-std=" + toolchain.cxx_standard};
  args.insert(args.end(), toolchain.cxx_flags.begin(), toolchain.cxx_flags.end());
  args.push_back("-I" + stage.string());
  args.push_back("-I" + labtc.dir.string());
  args.push_back("-I" + toolchain.harness_include.string());
  args.push_back("-fdiagnostics-color=never");
  args.push_back("-o");
  args.push_back(exe.string());
  for (const std::string& src : lab.sources) args.push_back((stage / src).string());
  args.push_back(labtc.driver_lib.string());
  args.push_back(toolchain.harness_lib.string());
  for (const std::string& l : labtc.libs) args.push_back("-l" + l);
  built.result.command = join_command(toolchain.cxx, args);

  // Reuse the executable when the same sources were built with the same command
  // against the same libraries (warm rebuilds cost nothing).
  ContentHash key;
  key.add(built.result.command)
      .add_file_stamp(labtc.driver_lib)
      .add_file_stamp(toolchain.harness_lib)
      .add_file_stamp(toolchain.cxx);
  std::vector<fs::path> staged;
  for (const auto& entry : fs::directory_iterator(stage)) staged.push_back(entry.path());
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

  RunRequest req;
  req.executable = toolchain.cxx;
  req.args = args;
  req.work_dir = work_dir;
  req.env = {{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"LANG", "C"}, {"LC_ALL", "C"},
             {"TMPDIR", "/tmp"}};
  req.limits.wall_seconds = 180;
  req.limits.cpu_seconds = 300;
  req.limits.address_space_mb = 0;  // cc1plus of a big template may need a lot
  req.limits.file_size_mb = 512;
  req.limits.max_processes = 64;
  req.limits.output_bytes = 64 * 1024;
  req.view.read_only = {labtc.dir, toolchain.harness_include, labtc.driver_lib.parent_path(),
                        toolchain.harness_lib.parent_path()};
  req.view.read_write = {work_dir};

  auto t0 = std::chrono::steady_clock::now();
  RunResult run = runner.run(req);
  built.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  built.result.log = map_paths(run.stderr_text + run.stdout_text, stage, submission_dir);
  if (run.stderr_truncated || run.stdout_truncated) built.result.log += "\n[compiler output truncated]";
  built.result.diagnostics = parse_gcc_diagnostics(run.stderr_text, stage, submission_dir);
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
