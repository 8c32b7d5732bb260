// Proves, without a GPU, that every test of every lab can run under the lab's limits:
// the outputs each program of a grading writes for the test's dataset (the expected
// outputs, the graded program, a performance test's baseline) fit the file size limit
// (RLIMIT_FSIZE, per file) and, together, the memory limit. Performance datasets run
// only on a GPU, so without this a lab could ship a test that no machine ever ran
// (lab03's vec_large wrote past 256 MiB on the first GPU that tried).
//
//   check_dataset_limits --labs DIR --model task_outputs.toml [--toolchain toolchain.json --work DIR]
//
// The sizes come from tests/limits/task_outputs.toml. With --toolchain the check first
// proves that table against the real programs: it generates each task's smallest
// dataset, runs the expected-output program and the graded reference (sim build for GPU
// labs) on it, and compares every array they wrote (name, count, element size).
// Exit 0: all fit; 1: a test does not fit or the table is wrong; 2: bad arguments.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "output_model.hpp"
#include "program_run.hpp"
#include "parlab/datasets/generator.hpp"
#include "parlab/harness/arrays.hpp"
#include "spec/lab_spec.hpp"

namespace fs = std::filesystem;
using parlab::Params;
using parlab::grader::BaselineProgram;
using parlab::grader::Device;
using parlab::grader::LabSpec;
using parlab::grader::TestSpec;
using namespace parlab::limits;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;
// Verification runs the real programs: only on datasets whose outputs are this small.
constexpr std::uint64_t kVerifyMaxBytes = 16 * kMiB;

std::string mib(std::uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / kMiB);
  std::string s = buf;
  if (bytes % kMiB != 0 && bytes > kMiB) s += " (" + std::to_string(bytes) + " bytes)";
  return s;
}

// "cores" (the grader's core count) does not change any output's size: any number will do.
Params resolved(const Params& p) {
  Params out = p;
  for (const auto& [k, v] : p.values())
    if (v == "cores") out.set(k, "2");
  return out;
}

// One program run of a grading: who writes, which task, with which parameters.
struct Run {
  Writer writer;
  std::string task;
  Params params;
  std::string what;
};

std::vector<Run> runs_of(const LabSpec& lab, const TestSpec& t) {
  const std::string expected =
      lab.kind == Device::gpu ? "the expected outputs (" + lab.id + "_cpu_reference)" : "the reference";
  std::vector<Run> runs = {{Writer::program, t.task, resolved(t.params), "the graded program"},
                           {Writer::expected, t.task, resolved(t.params), expected}};
  if (t.performance) {
    const auto& p = *t.performance;
    const Params params = resolved(p.baseline_params.values().empty() ? t.params : p.baseline_params);
    if (p.baseline_program == BaselineProgram::cpu_reference) {
      runs.push_back({Writer::expected, p.baseline_task, params, "the baseline (cpu_reference)"});
    } else {
      runs.push_back({Writer::program, p.baseline_task, params, "the baseline (" + std::string(to_string(p.baseline_program)) + ")"});
    }
  }
  return runs;
}

const std::vector<ArrayModel>* find_task(const OutputModel& model, const std::string& lab,
                                         const std::string& task) {
  auto l = model.find(lab);
  if (l == model.end()) return nullptr;
  auto t = l->second.find(task);
  return t == l->second.end() ? nullptr : &t->second;
}

// Part 1: the arithmetic, for every test.
void check_test(const LabSpec& lab, const TestSpec& t, const OutputModel& model,
                std::vector<std::string>& failures) {
  const auto& ds = lab.dataset(t.dataset);
  const std::string head = lab.id + " test '" + t.name + "' (" + t.where + ", dataset '" + ds.id + "'): ";
  const std::uint64_t file_limit = t.limits.file_size_mb * kMiB;
  const std::uint64_t memory_mb = t.limits.memory_mb ? t.limits.memory_mb : t.limits.address_space_mb;
  for (const Run& run : runs_of(lab, t)) {
    const auto* arrays = find_task(model, lab.id, run.task);
    if (!arrays) {
      failures.push_back(head + "task '" + run.task + "' has no entry [" + lab.id + "." + run.task +
                         "] in tests/limits/task_outputs.toml: list the arrays it writes");
      continue;
    }
    std::vector<ArrayBytes> sizes;
    try {
      sizes = output_bytes(*arrays, run.writer, run.params, ds.params);
    } catch (const std::exception& e) {
      failures.push_back(head + run.what + ", task " + run.task + ": " + e.what());
      continue;
    }
    std::uint64_t total = 0;
    for (const ArrayBytes& a : sizes) {
      total += a.bytes;
      if (a.bytes > file_limit) {
        failures.push_back(head + run.what + ", task " + run.task + ", writes '" + a.name + "' of " +
                           std::to_string(a.elements) + " elements = " + mib(a.bytes) +
                           ", past the file size limit of " + mib(file_limit) +
                           " (file_size_mb): it would die of SIGXFSZ");
      }
    }
    if (memory_mb && total > memory_mb * kMiB) {
      failures.push_back(head + run.what + ", task " + run.task + ", holds at least " + mib(total) +
                         " of outputs, past the memory limit of " + mib(memory_mb * kMiB) + " (memory_mb)");
    }
  }
}

// Runs `exe` on the dataset and compares what it wrote with the model.
void verify_run(const fs::path& exe, Writer writer, const std::string& task, const Params& test_params,
                const parlab::grader::DatasetSpec& ds, const fs::path& data_dir, const fs::path& out_dir,
                const std::vector<ArrayModel>& arrays, std::vector<std::string>& failures) {
  const std::string head = exe.filename().string() + " --task " + task + " on dataset '" + ds.id + "': ";
  fs::remove_all(out_dir);
  std::vector<std::string> args = {"--task", task, "--dataset", data_dir.string(), "--out",
                                   out_dir.string(), "--warmup", "0", "--repeat", "1"};
  for (const auto& [k, v] : test_params.values()) {
    args.push_back("--param");
    args.push_back(k + "=" + v);
  }
  const fs::path log = out_dir.string() + ".log";
  const int rc = run_program(exe, args, log);
  if (rc != 0) {
    failures.push_back(head + "exited with " + std::to_string(rc) + ":\n" + log_tail(log));
    return;
  }
  const auto predicted = output_bytes(arrays, writer, test_params, ds.params);
  for (const auto& got : parlab::harness::read_outputs(out_dir)) {
    auto m = std::find_if(predicted.begin(), predicted.end(),
                          [&](const ArrayBytes& a) { return a.name == got.name; });
    const std::uint64_t bytes = got.values.size() * parlab::harness::dtype_size(got.dtype);
    if (m == predicted.end()) {
      failures.push_back(head + "wrote array '" + got.name + "', which task_outputs.toml does not list");
    } else if (m->elements != got.values.size() || m->bytes != bytes) {
      failures.push_back(head + "wrote '" + got.name + "' with " + std::to_string(got.values.size()) +
                         " elements (" + std::to_string(bytes) + " bytes); task_outputs.toml says " +
                         std::to_string(m->elements) + " (" + std::to_string(m->bytes) + " bytes)");
    }
  }
}

// Part 2: the table against the real programs, on each task's smallest dataset.
void verify_model(const std::vector<LabSpec>& labs, const OutputModel& model,
                  const fs::path& toolchain_file, const fs::path& work, std::vector<std::string>& failures,
                  int& verified) {
  const auto toolchain = nlohmann::json::parse(std::ifstream(toolchain_file));
  for (const LabSpec& lab : labs) {
    const auto& entry = toolchain.at("labs").at(lab.id);
    const bool gpu = lab.kind == Device::gpu;
    const fs::path expected_exe = entry.at(gpu ? "cpu_reference_exe" : "reference_exe").get<std::string>();
    const fs::path program_exe = entry.at(gpu ? "sim_reference_exe" : "reference_exe").get<std::string>();
    std::map<std::string, std::pair<std::uint64_t, const TestSpec*>> smallest;  // task -> test
    for (const TestSpec& t : lab.tests) {
      const auto* arrays = find_task(model, lab.id, t.task);
      if (!arrays) continue;  // reported by part 1
      std::uint64_t total = 0;
      try {
        for (const auto& a : output_bytes(*arrays, Writer::expected, resolved(t.params), lab.dataset(t.dataset).params))
          total += a.bytes;
      } catch (const std::exception&) {
        continue;  // reported by part 1
      }
      auto [it, fresh] = smallest.try_emplace(t.task, total, &t);
      if (!fresh && total < it->second.first) it->second = {total, &t};
    }
    for (const auto& [task, pick] : smallest) {
      const TestSpec& t = *pick.second;
      if (pick.first > kVerifyMaxBytes) {
        failures.push_back(lab.id + " task '" + task + "': no test runs it on a dataset small enough (" +
                           mib(kVerifyMaxBytes) + " of outputs) to prove task_outputs.toml against it");
        continue;
      }
      const auto& ds = lab.dataset(t.dataset);
      const fs::path data_dir = work / lab.id / ds.id;
      if (!fs::exists(data_dir / ".complete")) {
        fs::remove_all(data_dir);
        fs::create_directories(data_dir);
        const auto* gen = parlab::datasets::find_generator(ds.generator);
        if (!gen) throw std::runtime_error(lab.id + ": unknown generator " + ds.generator);
        gen->generate(ds.params, ds.seed.value_or(12345), data_dir);
        std::ofstream(data_dir / ".complete") << "";
      }
      const auto& arrays = *find_task(model, lab.id, task);
      const Params params = resolved(t.params);
      verify_run(expected_exe, Writer::expected, task, params, ds, data_dir,
                 work / lab.id / ("expected-" + task), arrays, failures);
      if (t.device != Device::cpu || !gpu) {
        verify_run(program_exe, Writer::program, task, params, ds, data_dir,
                   work / lab.id / ("program-" + task), arrays, failures);
      }
      ++verified;
    }
  }
}

int usage(const std::string& why) {
  std::cerr << "check_dataset_limits: " << why
            << "\nusage: check_dataset_limits --labs DIR --model task_outputs.toml"
               " [--toolchain toolchain.json --work DIR]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path labs_dir, model_file, toolchain, work;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage("option " + a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--labs") labs_dir = v;
    else if (a == "--model") model_file = v;
    else if (a == "--toolchain") toolchain = v;
    else if (a == "--work") work = v;
    else return usage("unknown option " + a);
  }
  if (labs_dir.empty() || model_file.empty()) return usage("--labs and --model are required");
  if (toolchain.empty() != work.empty()) return usage("--toolchain and --work go together");
  try {
    const auto labs = parlab::grader::load_all_labs(labs_dir);
    const OutputModel model = load_output_model(model_file);
    std::vector<std::string> failures;
    int verified = 0, tests = 0;
    if (!toolchain.empty()) verify_model(labs, model, toolchain, work, failures, verified);
    for (const LabSpec& lab : labs)
      for (const TestSpec& t : lab.tests) {
        check_test(lab, t, model, failures);
        ++tests;
      }
    for (const auto& f : failures) std::cout << "FAIL " << f << "\n";
    std::cout << labs.size() << " labs, " << tests << " tests checked against their limits";
    if (!toolchain.empty()) std::cout << "; task_outputs.toml proved on " << verified << " tasks' smallest datasets";
    std::cout << ": " << (failures.empty() ? "all fit" : std::to_string(failures.size()) + " problems") << "\n";
    return failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "check_dataset_limits: " << e.what() << "\n";
    return 2;
  }
}
