#include "grading/lab_runner.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

// The child's own account of a failure (status.json); untrusted, used only as text.
std::string status_message(const fs::path& out_dir) {
  nlohmann::json s = read_json(out_dir / "status.json");
  if (!s.is_object()) return "";
  std::string status = s.value("status", "");
  std::string msg = s.value("message", "");
  if (msg.size() > 2000) msg = msg.substr(0, 2000) + "...";
  if (status == "error") return msg;
  if (status == "out_of_memory") return "out of memory: " + msg;
  if (status == "running") return "stopped while the task was running";
  return msg;
}

// The runner's reason already names the limit hit or the signal, with a hint.
std::string failure_reason(const RunResult& r) {
  if (!r.reason.empty()) return r.reason;
  return std::string("run ended: ") + to_string(r.outcome);
}

// Optional parts of timings.json (GPU drivers). Informational only, so anything
// malformed is dropped rather than failing the run.
void read_phases_and_work(const nlohmann::json& timings, TaskRun& out) {
  if (auto it = timings.find("phases_s"); it != timings.end() && it->is_object()) {
    for (const auto& [name, samples] : it->items()) {
      if (!samples.is_array() || name.size() > 64) continue;
      std::vector<double> values;
      for (const auto& v : samples) {
        if (v.is_number() && v.get<double>() >= 0) values.push_back(v.get<double>());
      }
      if (!values.empty()) out.phases_s[name] = std::move(values);
    }
  }
  if (auto it = timings.find("work"); it != timings.end() && it->is_object()) {
    auto number = [&](const char* key) {
      auto v = it->find(key);
      return v != it->end() && v->is_number() && v->get<double>() > 0 ? v->get<double>() : 0.0;
    };
    out.work_bytes = number("bytes");
    out.work_flops = number("flops");
  }
  if (auto it = timings.find("sample_label"); it != timings.end() && it->is_string()) {
    std::string label = it->get<std::string>();
    if (label.size() <= 64) out.sample_label = label;
  }
}

}  // namespace

TaskRun LabRunner::run(const TaskInvocation& inv, const std::string& name) {
  TaskRun out;
  const fs::path dir = runs_root_ / name;
  fs::remove_all(dir);
  out.out_dir = dir / "out";
  fs::create_directories(dir);

  RunRequest req;
  req.executable = inv.executable;
  req.args = {"--task", inv.task, "--dataset", inv.dataset_dir.string(), "--out",
              out.out_dir.string(), "--warmup", std::to_string(inv.warmup), "--repeat",
              std::to_string(inv.repeat)};
  for (const auto& [k, v] : inv.params.values()) {
    req.args.push_back("--param");
    req.args.push_back(k + "=" + v);
  }
  req.work_dir = dir;
  req.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", dir.string()}, {"LANG", "C"},
             {"TMPDIR", dir.string()}};
  for (const auto& [k, v] : extra_env_) req.env[k] = v;
  req.limits = inv.limits;
  req.view.read_only = {inv.executable.parent_path(), inv.dataset_dir};
  req.view.read_write = {dir};

  out.run = runner_.run(req);
  child_seconds_ += out.run.wall_seconds;
  if (out.run.outcome != RunOutcome::ok) {
    std::string child = status_message(out.out_dir);
    out.message = failure_reason(out.run);
    if (!child.empty() && out.run.outcome != RunOutcome::timeout) {
      out.message += (out.message.empty() ? "" : ": ") + child;
    }
    return out;
  }

  // Exit 0 is not enough: the outputs and timings must be there and plausible.
  nlohmann::json timings = read_json(out.out_dir / "timings.json");
  if (!timings.is_object() || !timings.contains("samples_s") ||
      !timings["samples_s"].is_array()) {
    out.run.outcome = RunOutcome::bad_output;
    out.message = "the program exited without writing its results (timings.json missing); "
                  "did something call exit() early?";
    return out;
  }
  for (const auto& v : timings["samples_s"]) {
    if (!v.is_number() || v.get<double>() < 0) {
      out.run.outcome = RunOutcome::bad_output;
      out.message = "timings.json holds an invalid sample";
      return out;
    }
    out.samples_s.push_back(v.get<double>());
  }
  // The process is untrusted: its timings may not claim more than the wall time the
  // grader observed for the whole process.
  double claimed = std::accumulate(out.samples_s.begin(), out.samples_s.end(), 0.0);
  if (claimed > out.run.wall_seconds * 1.05 + 0.01) {
    out.run.outcome = RunOutcome::bad_output;
    out.message = "reported timings exceed the process's own run time; results rejected";
    return out;
  }
  read_phases_and_work(timings, out);
  if (!fs::exists(out.out_dir / "manifest.json")) {
    out.run.outcome = RunOutcome::bad_output;
    out.message = "the program exited without writing its outputs (manifest.json missing)";
  }
  return out;
}

std::vector<harness::NamedArray> LabRunner::outputs(const TaskRun& run) {
  return harness::read_outputs(run.out_dir);
}

}  // namespace parlab::grader
