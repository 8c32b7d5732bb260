// The grader-owned main of every lab executable: parse the command line, run one task
// around the student's code, and leave status.json, timings.json and the outputs.
#include "parlab/harness/driver.hpp"

#include <charconv>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "parlab/harness/atomic_file.hpp"
#include "fork_guard.hpp"

namespace fs = std::filesystem;

namespace parlab::harness {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitTaskError = 1;
constexpr int kExitUsage = 2;

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CommandLine {
  bool list_tasks = false;
  bool help = false;
  std::string task;
  fs::path dataset_dir;
  fs::path out_dir;
  int warmup = 0;
  int repeat = 1;
  Params params;
};

std::string usage(const char* program) {
  return std::string("usage: ") + program +
         " --task NAME --dataset DIR --out DIR [--warmup N] [--repeat N] [--param k=v]...\n"
         "       " +
         program + " --list-tasks\n";
}

int parse_count(const std::string& option, const std::string& text, int minimum) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value < minimum) {
    throw UsageError(option + " expects an integer >= " + std::to_string(minimum) + ", got '" +
                     text + "'");
  }
  return value;
}

void add_param(Params& params, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError("--param expects key=value, got '" + text + "'");
  }
  params.set(text.substr(0, eq), text.substr(eq + 1));
}

// Accepts both "--opt value" and "--opt=value".
CommandLine parse_command_line(int argc, char** argv) {
  CommandLine cl;
  bool has_dataset = false;
  bool has_out = false;
  for (int i = 1; i < argc; ++i) {
    std::string option = argv[i];
    std::string value;
    bool inline_value = false;
    if (const auto eq = option.find('='); option.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = option.substr(eq + 1);
      option = option.substr(0, eq);
      inline_value = true;
    }
    if (option == "--list-tasks" || option == "--help" || option == "-h") {
      if (inline_value) throw UsageError(option + " takes no value");
      (option == "--list-tasks" ? cl.list_tasks : cl.help) = true;
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw UsageError(option + " needs a value");
      value = argv[++i];
    }
    if (option == "--task") {
      cl.task = value;
    } else if (option == "--dataset") {
      cl.dataset_dir = value;
      has_dataset = true;
    } else if (option == "--out") {
      cl.out_dir = value;
      has_out = true;
    } else if (option == "--warmup") {
      cl.warmup = parse_count(option, value, 0);
    } else if (option == "--repeat") {
      cl.repeat = parse_count(option, value, 1);
    } else if (option == "--param") {
      add_param(cl.params, value);
    } else {
      throw UsageError("unknown option '" + option + "'");
    }
  }
  if (cl.list_tasks || cl.help) return cl;
  if (cl.task.empty()) throw UsageError("--task is required");
  if (!has_dataset || cl.dataset_dir.empty()) throw UsageError("--dataset is required");
  if (!has_out || cl.out_dir.empty()) throw UsageError("--out is required");
  return cl;
}

std::vector<Task>& extra_tasks() {
  static std::vector<Task> tasks;
  return tasks;
}

// The driver's table followed by the registered extras; a clash is a build mistake.
std::vector<Task> all_tasks(std::span<const Task> tasks) {
  std::vector<Task> all(tasks.begin(), tasks.end());
  for (const Task& extra : extra_tasks()) {
    for (const Task& t : all) {
      if (t.name == extra.name) {
        throw UsageError("task '" + extra.name + "' is registered twice (an extra task may "
                         "not reuse the name of a driver task)");
      }
    }
    all.push_back(extra);
  }
  return all;
}

const Task& find_task(std::span<const Task> tasks, const std::string& name) {
  std::string known;
  for (const Task& t : tasks) {
    if (t.name == name) return t;
    known += (known.empty() ? "" : ", ") + t.name;
  }
  throw UsageError("unknown task '" + name + "' (tasks: " + known + ")");
}

void list_tasks(std::span<const Task> tasks) {
  for (const Task& t : tasks) std::cout << t.name << "\t" << t.description << "\n";
}

// Best effort: a status that cannot be written must not hide the task's own outcome.
void write_status(const fs::path& dir, const char* status, const std::string& message = {}) {
  try {
    nlohmann::json s = {{"status", status}};
    if (!message.empty()) s["message"] = message;
    write_file_atomically(dir / "status.json",
                          s.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                          Durability::page_cache);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parlab: cannot write status.json: %s\n", e.what());
  }
}

int run_task(const Task& task, const CommandLine& cl) {
  // Released when the task runs out of memory, so reporting it does not fail too. Address
  // space, not touched pages: a run's bad_alloc comes from its address-space limit (a
  // memory cgroup kills instead), and zeroing the megabyte cost each run 256 page faults.
  // ::operator new, not a new-expression, which the compiler may drop as unused.
  std::unique_ptr<void, void (*)(void*)> reserve(::operator new(std::size_t{1} << 20),
                                                 [](void* p) { ::operator delete(p); });
  detail::remember_output_owner();

  write_status(cl.out_dir, "running");
  OutputWriter out(cl.out_dir);
  TaskContext ctx(cl.dataset_dir, cl.params, out, cl.warmup, cl.repeat);
  try {
    task.run(ctx);
    detail::stop_if_forked_child();
    out.finish();
    write_timings(cl.out_dir, cl.warmup, ctx.samples(), ctx.phases(), ctx.work(),
                  ctx.sample_label());
    write_status(cl.out_dir, "ok");
    return kExitOk;
  } catch (const std::bad_alloc& e) {
    detail::stop_if_forked_child();
    reserve.reset();
    const std::string message =
        std::string(e.what()) + " escaped task '" + task.name + "': the program ran out of memory";
    write_status(cl.out_dir, "out_of_memory", message);
    std::fprintf(stderr, "parlab: %s\n", message.c_str());
    return kExitOutOfMemory;
  } catch (const std::exception& e) {
    detail::stop_if_forked_child();
    write_status(cl.out_dir, "error", e.what());
    std::fprintf(stderr, "parlab: task '%s' failed: %s\n", task.name.c_str(), e.what());
    return kExitTaskError;
  } catch (...) {
    detail::stop_if_forked_child();
    const std::string message = "an exception not derived from std::exception was thrown";
    write_status(cl.out_dir, "error", message);
    std::fprintf(stderr, "parlab: task '%s' failed: %s\n", task.name.c_str(), message.c_str());
    return kExitTaskError;
  }
}

}  // namespace

bool register_extra_task(Task task) {
  extra_tasks().push_back(std::move(task));
  return true;
}

int run_driver(int argc, char** argv, std::span<const Task> driver_tasks) {
  const char* program = argc > 0 ? argv[0] : "lab";
  CommandLine cl;
  const Task* task = nullptr;
  std::vector<Task> tasks;
  try {
    tasks = all_tasks(driver_tasks);
    cl = parse_command_line(argc, argv);
    if (cl.help) {
      std::cout << usage(program);
      return kExitOk;
    }
    if (cl.list_tasks) {
      list_tasks(tasks);
      return kExitOk;
    }
    task = &find_task(tasks, cl.task);
    if (!fs::is_directory(cl.dataset_dir)) {
      throw UsageError("dataset directory " + cl.dataset_dir.string() + " does not exist");
    }
    std::error_code ec;
    fs::create_directories(cl.out_dir, ec);
    if (ec || !fs::is_directory(cl.out_dir)) {
      throw UsageError("cannot create output directory " + cl.out_dir.string() +
                       (ec ? ": " + ec.message() : ""));
    }
  } catch (const UsageError& e) {
    std::cerr << program << ": " << e.what() << "\n" << usage(program);
    return kExitUsage;
  }
  return run_task(*task, cl);
}

}  // namespace parlab::harness
