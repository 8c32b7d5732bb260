#include "process/sandboxed_runner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "process/bwrap_command.hpp"
#include "process/bwrap_probe.hpp"
#include "process/bwrap_status.hpp"
#include "process/child_monitor.hpp"
#include "process/exit_classifier.hpp"
#include "process/hidden_processes.hpp"
#include "process/machine_load.hpp"
#include "process/oom_kills.hpp"
#include "process/process_group.hpp"
#include "process/request_checks.hpp"
#include "process/run_area.hpp"
#include "process/rlimits.hpp"
#include "process/settings_file.hpp"
#include "process/signal_names.hpp"
#include "process/spawn_child.hpp"
#include "process/syscall_filter.hpp"
#include "process/uid_leftovers.hpp"
#include "process/work_dir.hpp"

namespace parlab::grader {
namespace {

namespace fs = std::filesystem;
using namespace process;

// How the child is started: the program itself, or bwrap with the program after "--".
struct Launch {
  std::string program;
  std::vector<std::string> args;
  Pipe status_pipe;  // bubblewrap only
};

// env(1), to undo the PWD that bwrap sets (see command_with_requested_pwd).
fs::path env_program() {
  static const fs::path found = [] {
    std::error_code error;
    fs::path path = fs::canonical("/usr/bin/env", error);
    return error ? fs::path() : path;
  }();
  return found;
}

std::optional<std::string> requested_pwd(const RunRequest& request) {
  auto found = request.env.find("PWD");
  if (found == request.env.end()) return std::nullopt;
  return found->second;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "(it printed nothing)" : line;
}

// Appended to start failures after the privilege drop, the usual cause of EACCES.
std::string reachability_hint(uid_t uid) {
  return " (the program runs as uid " + std::to_string(uid) +
         ": it, its work dir and the view paths must be reachable by that user)";
}

MonitorLimits monitor_limits_for(const ResourceLimits& limits) {
  MonitorLimits monitor;
  monitor.wall_seconds = limits.wall_seconds;
  monitor.output_bytes = limits.output_bytes;
  monitor.output_kill_bytes = limits.output_kill_bytes;
  return monitor;
}

void add_simulator_report(RunResult& result, const ChildEnd& end) {
  result.simulator_report = end.report_capture.text();
  result.simulator_report_truncated = end.report_capture.truncated();
}

RunResult result_of(const ChildEnd& end, const Termination& termination,
                    const TerminationContext& context, const ResourceLimits& limits,
                    double tree_cpu_seconds) {
  Verdict verdict = classify_termination(termination, context, limits, end.stderr_capture.text());
  RunResult result;
  result.outcome = verdict.outcome;
  result.reason = verdict.reason;
  result.exit_code = termination.signaled ? -1 : termination.exit_code;
  result.signal = termination.signaled ? termination.signal : 0;
  if (termination.signaled) result.signal_name = signal_name(termination.signal);
  result.wall_seconds = end.wall_seconds;
  result.cpu_seconds = tree_cpu_seconds;
  result.stdout_text = end.stdout_capture.text();
  result.stderr_text = end.stderr_capture.text();
  result.stdout_truncated = end.stdout_capture.truncated();
  result.stderr_truncated = end.stderr_capture.truncated();
  result.stdout_bytes = end.stdout_capture.total_bytes();
  result.stderr_bytes = end.stderr_capture.total_bytes();
  return result;
}

// The run's own cgroup (memory and process count of the whole tree), which the child
// joins before it runs anything. `cgroup` outlives `plan`'s pointers into it.
void join_new_cgroup(std::optional<RunCgroup>& cgroup, const CgroupSupport& support,
                     const ResourceLimits& limits, std::uint64_t memory_mb, ChildSetupPlan& plan) {
  std::uint64_t pids = limits.max_processes ? limits.max_processes + kBubblewrapHelperProcesses + 1 : 0;
  cgroup.emplace(support, memory_mb << 20, pids);
  for (const std::string& file : cgroup->procs_files())
    plan.cgroup_procs[plan.cgroup_count++] = file.c_str();
}

// Sampling the tree while it runs (CPU performance runs), and the machine's counters
// before. `sampler` outlives the monitor that ticks it.
void start_observing(std::optional<TreeSampler>& sampler, MonitorLimits& monitor_limits,
                     CpuCounters& machine_before, pid_t pid, const std::optional<RunCgroup>& cgroup,
                     bool in_bubblewrap) {
  // With a cgroup its process list is the tree (the last file: cpuacct on v1).
  sampler.emplace(pid, cgroup ? fs::path(cgroup->procs_files().back()) : fs::path(),
                  in_bubblewrap ? static_cast<int>(kBubblewrapHelperProcesses) : 0);
  monitor_limits.on_tick = [&sampler] { sampler->sample(); };
  // Workers of a short task may live 50 ms: look often enough to see them.
  monitor_limits.tick = std::chrono::milliseconds(5);
  machine_before = read_cpu_counters();
}

// What bubblewrap lets the child see besides the system's folders.
struct BwrapView {
  const std::vector<fs::path>& read_only;
  const std::vector<fs::path>& read_write;
  const fs::path& work_dir;
};

// bubblewrap around the command, with its status pipe (kept open in the child).
Launch bubblewrap_launch(const SandboxOptions& options, const RunRequest& request,
                         const ExecutablePath& executable, const BwrapView& view,
                         ChildSetupPlan& plan) {
  Launch launch;
  launch.status_pipe = make_pipe();
  plan.keep_open_fd = launch.status_pipe.write_end.get();
  plan.no_new_privileges = false;  // bwrap sets it itself, after its setup
  BwrapLayout layout;
  layout.system_dirs = inspect_system_dirs();
  if (options.expose_gpu_devices) layout.device_nodes = find_gpu_device_nodes();
  layout.read_only = view.read_only;
  layout.read_write = view.read_write;
  layout.work_dir = view.work_dir;
  layout.executable = executable.invoked;
  layout.executable_target = executable.resolved;
  layout.status_fd = plan.keep_open_fd;
  layout.tmp_size_bytes = request.limits.file_size_mb << 20;
  launch.program = options.bubblewrap_path.string();
  launch.args = bubblewrap_arguments(layout);
  std::vector<std::string> command =
      command_with_requested_pwd(env_program(), executable.invoked, requested_pwd(request));
  launch.args.insert(launch.args.end(), command.begin(), command.end());
  return launch;
}

// No kernel keys for a root grader's runs at any level; without bubblewrap's
// namespaces no network or io_uring either (syscall_filter.hpp).
void add_syscall_filters(ChildSetupPlan& plan, bool drops_privileges, bool uses_bubblewrap) {
  if (const SyscallFilter* keys = drops_privileges ? key_store_filter() : nullptr)
    plan.key_store_filter = &keys->program;
  if (const SyscallFilter* filter = uses_bubblewrap ? nullptr : fallback_syscall_filter())
    plan.syscall_filter = &filter->program;
}

// `report`: the simulator's report channel, if any; its sending end is the child's alone
// once the child has started (the end of the child's tree is then end-of-file).
MonitoredChild spawn_monitored(Launch& launch, const RunRequest& request, const ChildSetupPlan& plan,
                               const std::string& hint, std::optional<Pipe>& report) {
  MonitoredChild child;
  child.started = std::chrono::steady_clock::now();
  try {
    SpawnedChild spawned = spawn_child(launch.program, launch.args, request.env, plan);
    child.pid = spawned.pid;
    child.stdout_read = std::move(spawned.stdout_read);
    child.stderr_read = std::move(spawned.stderr_read);
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(error.what() + hint);
  }
  launch.status_pipe.write_end.reset();  // only the sandbox may hold it now
  child.status_read = std::move(launch.status_pipe.read_end);
  if (report) {
    report->write_end.reset();
    child.report_read = std::move(report->read_end);
  }
  return child;
}

// Processes that left the group (setsid) came back to this subreaper when their
// parent died: reap the ones the kill reached, so no zombie holds the cgroup.
void reap_left_group(RunCgroup& cgroup) {
  for (int pid : cgroup.kill_all()) {
    for (int attempt = 0; attempt < 50; ++attempt) {
      pid_t reaped = ::waitpid(pid, nullptr, WNOHANG);
      if (reaped != 0) break;  // reaped, or not our child (ECHILD)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
}

void require_sandbox_started(const ChildEnd& end, const ExecutablePath& executable,
                             const std::string& hint) {
  BwrapStatus status = parse_bwrap_status(end.status_text);
  reap_sandbox_init(status);
  if (end.killed_for == KillCause::none && !status.child_started) {
    throw std::runtime_error("bubblewrap could not set up the sandbox for " +
                             executable.invoked.string() + ": " +
                             first_line(end.stderr_capture.text()) +
                             hint);
  }
}

TerminationContext termination_context(const ChildEnd& end, std::optional<std::uint64_t> oom_kills_before,
                                       std::optional<std::uint64_t> oom_kills_after,
                                       const CgroupUsage& usage, std::uint64_t memory_mb,
                                       const fs::path& work_dir) {
  TerminationContext context;
  context.killed_for = end.killed_for;
  context.killed_after_seconds = end.killed_after_seconds;
  context.stuck_diagnosis = end.stuck_diagnosis;
  context.stopped_as_deadlock = end.stopped_as_deadlock;
  context.oom_killer_ran =
      oom_kills_before && oom_kills_after && *oom_kills_after > *oom_kills_before;
  context.cpu_seconds_used = end.cpu_seconds;
  context.cgroup_oom_kills = usage.oom_kills;
  context.cgroup_memory_limit_bytes = memory_mb << 20;
  if (std::optional<std::uint64_t> quota = full_tmpfs_quota(work_dir)) {
    context.disk_quota_full = true;
    context.disk_quota_bytes = *quota;
  }
  return context;
}

// What the samples saw of the tree, and what other programs used meanwhile.
void add_observation(RunResult& result, const TreeSampler& sampler, double tree_cpu,
                     const CpuCounters& machine_before, const CpuCounters& machine_after) {
  result.tree = sampler.usage();
  // Sampled CPU time stands in where neither a cgroup nor wait4 could see the tree.
  if (tree_cpu < 0 && result.tree.observed)
    tree_cpu = result.tree.cpu_seconds + result.tree.helper_seconds;
  if (machine_before.ok && machine_after.ok && tree_cpu >= 0) {
    result.others_cpu_seconds =
        std::max(0.0, machine_after.busy_seconds - machine_before.busy_seconds - tree_cpu);
    result.steal_seconds = machine_after.steal_seconds - machine_before.steal_seconds;
  }
}

// The simulator's settings, if any, as a sealed file the child gets at the runtime's
// descriptor (process/settings_file); kept open here until the child has it.
UniqueFd pass_simulator_settings(const RunRequest& request, ChildSetupPlan& plan) {
  if (request.simulator_settings.empty()) return {};
  UniqueFd settings = sealed_settings_file(request.simulator_settings);
  plan.settings_fd = settings.get();
  plan.settings_target = kSimSettingsDescriptor;
  return settings;
}

// With settings, the simulator's report channel: its sending end goes to the child at
// the runtime's report descriptor; the receiving end is monitored with stdout and stderr.
std::optional<Pipe> pass_simulator_report(const RunRequest& request, ChildSetupPlan& plan) {
  if (request.simulator_settings.empty()) return std::nullopt;
  Pipe pipe = make_record_channel();
  plan.report_fd = pipe.write_end.get();
  plan.report_target = kSimReportDescriptor;
  return pipe;
}

}  // namespace

SandboxOptions::Bubblewrap bubblewrap_mode_from_string(const std::string& text) {
  if (text == "auto") return SandboxOptions::Bubblewrap::if_available;
  if (text == "require" || text == "on") return SandboxOptions::Bubblewrap::required;
  if (text == "off") return SandboxOptions::Bubblewrap::never;
  throw std::invalid_argument("the sandbox level must be auto, require or off, not '" + text + "'");
}

SandboxedRunner::SandboxedRunner(SandboxOptions options) : options_(std::move(options)) {
  drop_privileges_ = options_.drop_privileges && ::geteuid() == 0;
  uid_ = options_.unprivileged_uid;
  gid_ = options_.unprivileged_gid;
  // Its own uid and its reference's, taken together (uid_pool.hpp, lease_uids).
  std::vector<UidLease> leases;
  if (drop_privileges_ && options_.use_uid_pool) {
    leases = lease_uids(options_.uid_pool, 2);
    lease_.emplace(std::move(leases[0]));
    uid_ = lease_->uid();
    gid_ = lease_->gid();
  }
  if (options_.use_cgroups) cgroups_ = detect_cgroup_support();
  else cgroups_.problem = "turned off";
  become_child_subreaper();
  if (options_.use_bubblewrap != SandboxOptions::Bubblewrap::never) {
    std::optional<SandboxUser> run_as;
    if (drop_privileges_) run_as = SandboxUser{uid_, gid_};
    BubblewrapCheck check = check_bubblewrap(options_.bubblewrap_path, run_as);
    use_bubblewrap_ = check.usable;
    bubblewrap_problem_ = check.problem;
    if (!use_bubblewrap_ && options_.use_bubblewrap == SandboxOptions::Bubblewrap::required)
      throw std::runtime_error("bubblewrap was required but " + check.problem);
  }
  if (use_bubblewrap_) {
    process_view_ = "own pid namespace";
  } else if (drop_privileges_) {
    const std::optional<std::string>& problem = hidden_processes_problem();
    hide_other_processes_ = !problem;
    process_view_ = problem ? "other processes visible (" + *problem + ")" : "private /proc (hidepid)";
  } else {
    process_view_ = "other processes visible (the grader is not root)";
  }
  // A crashed grader's litter under this uid goes before the first run.
  if (lease_) sweep_leftovers_of(uid_, gid_);
  // Leased above, so a full pool is an error there (exit 3 in the CLI), not mid-grading.
  if (lease_) reference_runner_.reset(new SandboxedRunner(*this, std::move(leases[1])));
  else if (drop_privileges_) reference_runner_.reset(new SandboxedRunner(*this, std::nullopt));
}

SandboxedRunner::SandboxedRunner(const SandboxedRunner& parent, std::optional<UidLease> lease)
    : options_(parent.options_),
      use_bubblewrap_(parent.use_bubblewrap_),
      drop_privileges_(parent.drop_privileges_),
      hide_other_processes_(parent.hide_other_processes_),
      process_view_(parent.process_view_),
      bubblewrap_problem_(parent.bubblewrap_problem_),
      lease_(std::move(lease)),
      uid_(lease_ ? lease_->uid() : parent.uid_),
      // The shared reference group, not the uid's own: it opens the sealed files.
      gid_(process::reference_gid(parent.options_.uid_pool)),
      runs_reference_(true),
      cgroups_(parent.cgroups_) {
  if (lease_) sweep_leftovers_of(uid_, gid_);
}

std::optional<gid_t> SandboxedRunner::submissions_gid() const {
  if (!reference_runner_) return std::nullopt;
  return process::submissions_gid(options_.uid_pool);
}

void SandboxedRunner::begin_run() {
  std::lock_guard<std::mutex> lock(runs_mutex_);
  ++runs_in_flight_;
}

void SandboxedRunner::end_run() {
  std::lock_guard<std::mutex> lock(runs_mutex_);
  if (--runs_in_flight_ != 0) return;
  try {
    sweep_leftovers();
  } catch (const std::exception&) {
    // Best effort: the next run's sweep, or the next grading's at lease time, retries.
  }
}

// Only a leased uid is the grading's alone: the shared fallback uid (nobody) and
// the grader's own user may have other processes and files that are not litter.
// The lease-time sweeps stay whole: a crashed grader may have run at another level.
void SandboxedRunner::sweep_leftovers() {
  ScratchReach reach{{scratch_reached_.begin(), scratch_reached_.end()},
                     {scratch_subtrees_.begin(), scratch_subtrees_.end()}};
  scratch_reached_.clear();
  scratch_subtrees_.clear();
  if (lease_ && drop_privileges_) sweep_leftovers_of(uid_, gid_, reach);
}

// Under bubblewrap /tmp, /dev/shm and the IPC namespace are the run's own and die with
// it, /var and /run are not mounted: only a writable bind can reach a host folder.
void SandboxedRunner::note_scratch_reach(const std::vector<fs::path>& read_write, const fs::path& work_dir) {
  std::vector<fs::path> writable = read_write;
  writable.push_back(work_dir);
  const ScratchReach reach = use_bubblewrap_ ? scratch_reachable_through(writable)
                                             : ScratchReach{shared_scratch_folders(), {}};
  std::lock_guard<std::mutex> lock(runs_mutex_);
  scratch_reached_.insert(reach.folders.begin(), reach.folders.end());
  scratch_subtrees_.insert(reach.subtrees.begin(), reach.subtrees.end());
}

std::string SandboxedRunner::sandbox_name() const {
  return use_bubblewrap_ ? "bubblewrap" : "rlimits only";
}

ProcessRunner& SandboxedRunner::for_reference() {
  return reference_runner_ ? *reference_runner_ : *this;
}

std::string SandboxedRunner::isolation() const {
  std::string users;
  if (lease_) {
    users = "uid pool (uid " + std::to_string(uid_) +
            (reference_runner_ ? ", reference uid " + std::to_string(reference_runner_->uid_) : "") +
            ")";
  } else if (drop_privileges_) {
    users = "shared uid " + std::to_string(uid_) + " (no uid pool)";
  } else {
    users = "no uid switch (the grader is not root; no uid pool)";
  }
  std::string filter;
  if (!use_bubblewrap_) {
    const std::optional<std::string>& problem = fallback_filter_problem();
    filter = problem ? ", no seccomp filter (" + *problem + ")" : ", seccomp (no network sockets, no keyrings)";
  }
  return users + ", " + cgroups_.describe() + ", " + process_view_ + filter;
}

RunResult SandboxedRunner::run(const RunRequest& request) {
  check_request_is_well_formed(request);
  begin_run();
  struct RunCount {
    SandboxedRunner& runner;
    ~RunCount() { runner.end_run(); }
  } counted{*this};
  const ExecutablePath executable = find_executable(request.executable);
  const std::vector<fs::path> read_only = resolve_view_paths(request.view.read_only);
  const std::vector<fs::path> read_write = resolve_view_paths(request.view.read_write);

  const std::optional<FileOwner> owner = drop_privileges_ ? std::make_optional(FileOwner{uid_, gid_}) : std::nullopt;
  const fs::path work_dir = prepare_work_dir(request.work_dir, owner);
  const std::string work_dir_text = work_dir.string();
  note_scratch_reach(read_write, work_dir);

  // Everything the child needs after fork() is computed here (no allocation there).
  ChildSetupPlan plan;
  plan.work_dir = work_dir_text.c_str();
  plan.rlimits = plan_rlimits(request.limits, drop_privileges_,
                              use_bubblewrap_ ? kBubblewrapHelperProcesses : 0);
  plan.drop_privileges = drop_privileges_;
  plan.uid = uid_;
  plan.gid = gid_;
  if (drop_privileges_ && !runs_reference_)
    plan.supplementary_group = process::submissions_gid(options_.uid_pool);
  plan.grader_pid = ::getpid();
  if (drop_privileges_) plan.reach = &process::reach_plan();
  plan.hide_other_processes = hide_other_processes_;
  add_syscall_filters(plan, drop_privileges_, use_bubblewrap_);
  const UniqueFd settings = pass_simulator_settings(request, plan);
  std::optional<Pipe> report = pass_simulator_report(request, plan);

  // The whole tree's memory (memfd and tmpfs included) and process count, and a
  // kill that reaches processes which left the process group.
  const std::uint64_t memory_mb =
      request.limits.memory_mb ? request.limits.memory_mb : request.limits.address_space_mb;
  std::optional<RunCgroup> cgroup;
  if (cgroups_.kind != CgroupSupport::Kind::none) join_new_cgroup(cgroup, cgroups_, request.limits, memory_mb, plan);

  Launch launch;
  if (use_bubblewrap_) {
    launch = bubblewrap_launch(options_, request, executable, {read_only, read_write, work_dir}, plan);
  } else {
    launch.program = executable.invoked.string();
  }
  launch.args.insert(launch.args.end(), request.args.begin(), request.args.end());

  const std::string hint = drop_privileges_ ? reachability_hint(uid_) : "";
  std::optional<std::uint64_t> oom_kills_before = oom_kill_count();
  MonitoredChild child = spawn_monitored(launch, request, plan, hint, report);

  MonitorLimits monitor_limits = monitor_limits_for(request.limits);
  std::optional<TreeSampler> sampler;
  CpuCounters machine_before;
  if (request.observe)
    start_observing(sampler, monitor_limits, machine_before, child.pid, cgroup, use_bubblewrap_);
  ChildEnd end = monitor_child(std::move(child), monitor_limits);
  const CpuCounters machine_after = request.observe ? read_cpu_counters() : CpuCounters{};
  std::optional<std::uint64_t> oom_kills_after = oom_kill_count();
  CgroupUsage usage;
  if (cgroup) {
    reap_left_group(*cgroup);
    usage = cgroup->usage();
  }

  if (use_bubblewrap_) require_sandbox_started(end, executable, hint);

  const TerminationContext context =
      termination_context(end, oom_kills_before, oom_kills_after, usage, memory_mb, work_dir);
  // The CPU time of the whole tree: the run's cgroup counts every process in it.
  // Without one, wait4 counts the child and what it waited for, but not through
  // bubblewrap's pid namespace (measured: a 0.3 s spinner reads 0.00 s): not observed.
  double tree_cpu = cgroup ? usage.cpu_seconds : use_bubblewrap_ ? -1 : end.cpu_seconds;
  RunResult result = result_of(end, termination_from_wait_status(end.wait_status, use_bubblewrap_),
                               context, request.limits, tree_cpu);
  if (sampler) add_observation(result, *sampler, tree_cpu, machine_before, machine_after);
  if (report) add_simulator_report(result, end);
  return result;
}

std::unique_ptr<ProcessRunner> make_sandboxed_runner(SandboxOptions options) {
  return std::make_unique<SandboxedRunner>(std::move(options));
}

}  // namespace parlab::grader
