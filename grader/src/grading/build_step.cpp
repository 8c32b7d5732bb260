#include "grading/build_step.hpp"

#include <algorithm>

#include "grading/folder_lock.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// A build reused from an earlier grading of the same submission belongs to that
// grading's uid (its folder 0700, process/work_dir.cpp); this grading's uid must be
// able to enter it to run the program. Entering only: nothing there is listable.
void open_cached_build_to_this_grading(const fs::path& build_root) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(build_root, error)) {
    std::error_code ignored;
    if (entry.is_directory(ignored) && !entry.is_symlink(ignored))
      fs::permissions(entry.path(), fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add, ignored);
  }
}

}  // namespace

BuildTarget build_target(Device lab_kind, DeviceMode mode) {
  if (lab_kind != Device::gpu) return BuildTarget::host;
  // Without a GPU (sim, or none for a lab's CPU tests) g++ builds the host variant.
  return mode == DeviceMode::gpu ? BuildTarget::cuda : BuildTarget::sim;
}

BuiltProgram build_step(GradingContext& ctx, const fs::path& submission) {
  BuiltProgram built;
  {
    // Two gradings of one submission build one at a time; the second reuses the build.
    FolderLock build_lock(ctx.work / "build.lock", ctx.options.notice,
                          "another grading of this submission is building it");
    built = build_submission(ctx.lab, ctx.toolchain, submission, ctx.work / "build", ctx.runner,
                             ctx.lab.track == Track::python ? BuildTarget::python
                                                            : build_target(ctx.lab.kind, ctx.mode),
                             ctx.options.work_root / "compile-checks");
  }
  open_cached_build_to_this_grading(ctx.work / "build");
  hide_grader_paths(built.result, {submission, ctx.work});
  return built;
}

namespace {

std::string first_error(const BuildResult& build) {
  for (const Diagnostic& d : build.diagnostics) {
    if (d.severity != "error") continue;
    std::string where = d.file;
    if (d.line > 0) where += ":" + std::to_string(d.line);
    return where.empty() ? d.message : where + ": " + d.message;
  }
  return "";
}

void erase_all(std::string& text, const std::string& what) {
  if (what.empty()) return;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at)) text.erase(at, what.size());
}

// The simulator cannot build this code (a library it does not provide), or would grade
// other lines than a GPU compiles (compile/compiled_views): every test is left out with
// the reason; nothing is lost.
std::vector<TestResult> needs_gpu_results(const GradingContext& ctx, const BuildResult& build) {
  const std::string& needs_gpu = build.needs_gpu;
  std::vector<TestResult> results;
  for (const TestSpec& t : ctx.lab.tests) {
    const auto why = t.kind == TestKind::performance ? ctx.not_measured_reason(t, {}) : std::nullopt;
    TestResult r = ctx.base_result(t);
    r.status = TestStatus::not_graded;
    r.outcome = RunOutcome::not_run;
    r.message = why && why->status == TestStatus::not_graded
                    ? why->reason
                    : "not graded here: needs a GPU (" + needs_gpu + "): " +
                          (build.needs_gpu_cause == BuildResult::NeedsGpuCause::compiled_lines
                               ? "the simulator grades only the lines a GPU build compiles"
                               : "the simulator does not provide this library") +
                          "; a GPU grading counts it";
    results.push_back(r);
  }
  return results;
}

}  // namespace

void hide_grader_paths(BuildResult& build, const std::vector<fs::path>& folders) {
  std::vector<std::string> prefixes;
  for (const fs::path& f : folders) {
    if (f.empty()) continue;
    std::error_code ignored;
    for (const fs::path& p : {f, fs::weakly_canonical(f, ignored)}) {
      std::string text = p.lexically_normal().string();
      while (text.size() > 1 && text.back() == '/') text.pop_back();
      if (text.size() > 1) prefixes.push_back(text + "/");
    }
  }
  // Longest first: a folder inside another loses its whole prefix.
  std::sort(prefixes.begin(), prefixes.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const std::string& p : prefixes) {
    erase_all(build.log, p);
    erase_all(build.command, p);
    for (Diagnostic& d : build.diagnostics) {
      erase_all(d.file, p);
      erase_all(d.message, p);
    }
  }
}

std::vector<TestResult> not_compiled_results(const GradingContext& ctx, const BuildResult& build) {
  if (!build.needs_gpu.empty()) return needs_gpu_results(ctx, build);
  const std::string error = first_error(build);
  const std::string message = "not run: the submission did not compile" +
                              (error.empty() ? std::string(" (the build section says why)")
                                             : " (first error: " + error + ")");
  std::vector<TestResult> results;
  for (const TestSpec& t : ctx.lab.tests) {
    // What this machine or mode could not have graded anyway stays out of the total, so
    // a build failure is scored out of the same points as a graded upload here.
    if (!ctx.runs_here(t)) {
      results.push_back(ctx.skipped_without_gpu(t));
      continue;
    }
    if (t.kind == TestKind::performance) {
      if (auto why = ctx.not_measured_reason(t, {}); why && why->status == TestStatus::not_graded) {
        TestResult r = ctx.base_result(t);
        r.status = TestStatus::not_graded;
        r.outcome = RunOutcome::not_run;
        r.message = why->reason;
        results.push_back(r);
        continue;
      }
    }
    TestResult r = ctx.base_result(t);
    r.status = TestStatus::failed;
    r.outcome = RunOutcome::not_run;
    r.message = message;
    results.push_back(r);
  }
  return results;
}

}  // namespace parlab::grader
