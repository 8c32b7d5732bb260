#include "grading/lab_runner.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>

#include "grading/child_run_files.hpp"
#include "grading/code_places.hpp"
#include "grading/sealed_report.hpp"
#include "grading/simulator_stop.hpp"
#include "grading/schedule_check.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// The child's own account of a failure (status.json); untrusted, used only as text.
std::string status_message(const ChildRunFiles& files) {
  ChildJson read = files.read_json("status.json", kStatusFileCap);
  if (!read.value) return read.missing ? "" : "(" + read.problem + ")";
  const nlohmann::json& s = *read.value;
  if (!s.is_object()) return "";
  auto text = [&](const char* key) {
    auto it = s.find(key);
    return it != s.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  std::string status = text("status");
  std::string msg = text("message");
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

bool is_valid_seconds(const nlohmann::json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0;
}

// Optional parts of timings.json (GPU drivers). Informational only, so anything
// malformed is dropped rather than failing the run.
void read_phases_and_work(const nlohmann::json& timings, TaskRun& out) {
  if (auto it = timings.find("phases_s"); it != timings.end() && it->is_object()) {
    for (const auto& [name, samples] : it->items()) {
      if (!samples.is_array() || name.size() > 64 || out.phases_s.size() >= 16) continue;
      std::vector<double> values;
      for (const auto& v : samples) {
        if (is_valid_seconds(v)) values.push_back(v.get<double>());
      }
      if (!values.empty()) out.phases_s[name] = std::move(values);
    }
  }
  if (auto it = timings.find("work"); it != timings.end() && it->is_object()) {
    auto number = [&](const char* key) {
      auto v = it->find(key);
      return v != it->end() && is_valid_seconds(*v) ? v->get<double>() : 0.0;
    };
    out.work_bytes = number("bytes");
    out.work_flops = number("flops");
  }
  if (auto it = timings.find("sample_label"); it != timings.end() && it->is_string()) {
    std::string label = it->get<std::string>();
    if (label.size() <= 64) out.sample_label = label;
  }
}

void reject(TaskRun& out, const std::string& message) {
  out.run.outcome = RunOutcome::bad_output;
  out.message = message;
}

// Exit 0 is not enough: the timings must be there, well-formed and plausible.
void check_timings(const ChildRunFiles& files, const TaskInvocation& inv, TaskRun& out) {
  ChildJson read = files.read_json("timings.json", kTimingsFileCap);
  if (!read.value) {
    reject(out, read.missing ? "the program exited without writing its results (timings.json "
                               "missing); did something call exit() early?"
                             : "timings.json rejected: " + read.problem);
    return;
  }
  const nlohmann::json& timings = *read.value;
  auto samples = timings.is_object() ? timings.find("samples_s") : timings.end();
  if (!timings.is_object() || samples == timings.end() || !samples->is_array()) {
    reject(out, "timings.json has no \"samples_s\" list");
    return;
  }
  if (samples->empty()) {
    reject(out, "timings.json holds no samples (the task was not timed)");
    return;
  }
  if (samples->size() > 100000) {
    reject(out, "timings.json holds too many samples");
    return;
  }
  for (const auto& v : *samples) {
    if (!is_valid_seconds(v)) {
      reject(out, "timings.json holds an invalid sample (not a finite, non-negative number)");
      return;
    }
    out.samples_s.push_back(v.get<double>());
  }
  // Drivers time each measured call (some add per-kernel samples); far more samples
  // than calls is a forgery, not a driver.
  if (out.samples_s.size() > static_cast<std::size_t>(inv.repeat) * 64 + 64) {
    reject(out, "timings.json holds " + std::to_string(out.samples_s.size()) +
                    " samples for " + std::to_string(inv.repeat) + " measured repetitions");
    return;
  }
  // The process is untrusted: its timings may not claim more than the wall time the
  // grader observed for the whole process. (Claiming less is bounded by the
  // side-by-side measurement, measure/observed_speed.hpp.)
  double claimed = std::accumulate(out.samples_s.begin(), out.samples_s.end(), 0.0);
  if (claimed > out.run.wall_seconds * 1.05 + 0.01) {
    reject(out, "reported timings exceed the process's own run time; results rejected");
    return;
  }
  read_phases_and_work(timings, out);
}

// The simulator's settings leave the environment, which the submission can read, for
// the settings descriptor (RunRequest::simulator_settings), key and seeds included.
void move_simulator_settings(RunRequest& req) {
  for (auto it = req.env.begin(); it != req.env.end();) {
    if (it->first.rfind("PARLAB_SIM_", 0) != 0) {
      ++it;
      continue;
    }
    req.simulator_settings += it->first + "=" + it->second + "\n";
    it = req.env.erase(it);
  }
}

}  // namespace

const std::string& LabRunner::code_places_for(const fs::path& program) {
  // The file as built: a program rebuilt at the same path is another program.
  std::error_code ec;
  const auto size = fs::file_size(program, ec);
  const auto written = fs::last_write_time(program, ec).time_since_epoch().count();
  const std::string key = program.string() + "|" + std::to_string(size) + "|" + std::to_string(written);
  const auto known = code_places_.find(key);
  if (known != code_places_.end()) return known->second;
  const fs::path work = runs_root_ / ("code-places-" + std::to_string(code_places_.size()));
  std::optional<std::string> places = code_places_of(runner_, code_places_tool_, program, work);
  return code_places_.emplace(key, places.value_or("")).first->second;
}

TaskRun LabRunner::run(const TaskInvocation& inv, const std::string& name) {
  TaskRun out;
  const fs::path dir = runs_root_ / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  out.runs_root = runs_root_;
  out.run_name = name;
  out.calls = inv.warmup + inv.repeat;
  const fs::path out_dir = dir / "out";

  RunRequest req;
  req.executable = inv.executable;
  req.args = {"--task", inv.task, "--dataset", inv.dataset_dir.string(), "--out",
              out_dir.string(), "--warmup", std::to_string(inv.warmup), "--repeat",
              std::to_string(inv.repeat)};
  for (const auto& [k, v] : inv.params.values()) {
    req.args.push_back("--param");
    req.args.push_back(k + "=" + v);
  }
  req.work_dir = dir;
  req.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", dir.string()}, {"LANG", "C"},
             {"TMPDIR", dir.string()}};
  for (const auto& [k, v] : extra_env_) req.env[k] = v;
  for (const auto& [k, v] : inv.env) req.env[k] = v;
  std::string report_key;
  if (fresh_sim_seeds_) {
    out.sim_seed = fresh_sim_seed();
    req.env["PARLAB_SIM_SEED"] = out.sim_seed;
    // The run's own key for the simulator's sealed reports (grading/sealed_report).
    report_key = fresh_report_key();
    req.env["PARLAB_SIM_REPORT_KEY"] = report_key;
  }
  move_simulator_settings(req);
  if (!req.simulator_settings.empty() && !code_places_tool_.empty()) {
    if (const std::string& places = code_places_for(inv.executable); !places.empty())
      req.simulator_settings += std::string(kCodePlacesSetting) + "=" + places + "\n";
  }
  req.limits = inv.limits;
  req.observe = inv.observe;
  req.view.read_only = {inv.executable.parent_path(), inv.dataset_dir};
  req.view.read_write = {dir};
  if (!inv.wrapper.empty()) {
    const fs::path wrapper = inv.wrapper.front();
    std::vector<std::string> args(inv.wrapper.begin() + 1, inv.wrapper.end());
    args.push_back(inv.executable.string());
    args.insert(args.end(), req.args.begin(), req.args.end());
    req.executable = wrapper;
    req.args = std::move(args);
    // Its folder, and where a link to it leads (the CUDA toolkit keeps the tool's files there).
    req.view.read_only.push_back(wrapper.parent_path());
    std::error_code ec;
    const fs::path real = fs::canonical(wrapper, ec);
    if (!ec && real.parent_path() != wrapper.parent_path()) req.view.read_only.push_back(real.parent_path());
  }

  out.run = runner_.run(req);
  child_seconds_ += out.run.wall_seconds;
  if (!report_key.empty()) {
    remember_sealed_run(dir, {report_key, out.run.outcome == RunOutcome::ok, out.run.simulator_report,
                              out.run.simulator_report_truncated});
    // What the simulator stopped at, from its sealed record only (grading/simulator_stop).
    if (out.run.signal == 0) out.stop = sealed_stop_of(runs_root_, name, out.run.exit_code);
    name_simulator_stop(out.run, out.stop);
  }
  const ChildRunFiles files(runs_root_, name);
  if (out.run.outcome != RunOutcome::ok) {
    std::string child = status_message(files);
    out.message = failure_reason(out.run);
    if (!child.empty() && out.run.outcome != RunOutcome::timeout) {
      out.message += (out.message.empty() ? "" : ": ") + child;
    }
    return out;
  }
  check_timings(files, inv, out);
  return out;
}

std::vector<harness::NamedArray> LabRunner::outputs(const TaskRun& run) {
  return ChildRunFiles(run.runs_root, run.run_name).outputs();
}

}  // namespace parlab::grader
