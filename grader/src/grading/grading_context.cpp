#include "grading/grading_context.hpp"

#include <cctype>

#include "compile/content_hash.hpp"
#include "grading/grading_area.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

std::string run_slug(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "test" : out;
}

GradingContext::GradingContext(const GradeOptions& o, const LabSpec& lab_spec, const Toolchain& tc,
                               ProcessRunner& process_runner)
    : options(o),
      lab(lab_spec),
      labtc(tc.lab(lab_spec.id)),
      toolchain(tc),
      runner(process_runner),
      work(o.work_root / lab_spec.id /
           ContentHash().add(fs::absolute(resolve_submission(o, labtc)).string()).hex()),
      grading_dir(work / "gradings" / grading_folder_name()),
      submission_runs(process_runner, grading_dir / "runs"),
      reference_runs(process_runner.for_reference(), grading_dir / "reference-runs"),
      cache_(o.work_root / "dataset-cache"),
      fresh_cache_(grading_dir / "fresh-data"),
      reference_outputs_(reference_runs) {}

void GradingContext::log(const std::string& line) const {
  if (options.log) options.log(line);
}

Params GradingContext::resolve_params(const Params& p) const {
  Params out = p;
  for (const auto& [k, v] : p.values()) {
    if (v == "cores") out.set(k, std::to_string(cores));
  }
  return out;
}

fs::path GradingContext::dataset_dir(const std::string& id) {
  const DatasetSpec& d = lab.dataset(id);
  if (d.seed) return cache_.get(d, *d.seed);
  return fresh_cache_.get(d, fresh_seed);
}

std::string GradingContext::dataset_label(const std::string& id) const {
  const DatasetSpec& d = lab.dataset(id);
  std::string seed = d.seed ? std::to_string(*d.seed) : std::to_string(fresh_seed) + ", fresh";
  return id + " (seed " + seed + ")";
}

// The CUDA runtime reserves a huge virtual address range, so an address-space limit
// would make every CUDA program fail to start; GPU runs rely on the wall/CPU limits,
// the run's memory cgroup (resident memory, where there is one) and the device's own memory.
ResourceLimits GradingContext::limits(const TestSpec& t) const {
  ResourceLimits l = t.limits;
  if (mode == DeviceMode::gpu) {
    l.memory_mb = l.address_space_mb;  // resident memory still bounded by the run's cgroup
    l.address_space_mb = 0;
  }
  return l;
}

const ExpectedOutputs& GradingContext::reference_run(const TestSpec& t, const std::string& task,
                                                     const Params& params) {
  return reference_outputs_.get({expected_exe, task, params, dataset_dir(t.dataset), 0, 1, limits(t)},
                                t.dataset);
}

bool GradingContext::runs_here(const TestSpec& t) const {
  return mode != DeviceMode::none || t.device == Device::cpu;
}

TestResult GradingContext::base_result(const TestSpec& t) const {
  TestResult r;
  r.name = t.name;
  r.kind = t.kind;
  r.visibility = t.visibility;
  r.max_points = t.points;
  r.dataset = dataset_label(t.dataset);
  return r;
}

TestResult GradingContext::skipped_without_gpu(const TestSpec& t) const {
  TestResult r = base_result(t);
  r.status = TestStatus::not_graded;
  r.message = "not graded here: no GPU tests run (" + device.detail + ")";
  return r;
}

std::optional<NotMeasured> GradingContext::not_measured_reason(
    const TestSpec& t, const std::map<std::string, TestResult>& done) const {
  // A Python submission's speed is measured against the Python reference only.
  const std::string missing_reference =
      lab.track == Track::python && labtc.python_reference_exe.empty()
          ? "this build has no Python reference to measure against (in a student kit: "
            "its bytecode is for another Python version than this machine's; the build "
            "warned)"
          : "";
  return performance_gate(t, lab, {options.performance, mode, device.detail, cores, missing_reference}, done);
}

}  // namespace parlab::grader
