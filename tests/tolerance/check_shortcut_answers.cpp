// Proves, without a GPU and without grading a submission, that no shortcut answer
// passes a correctness test of any lab: for every test it makes the expected outputs
// (the lab's expected-output program on the test's dataset), builds each shortcut
// answer from them (tests/tolerance/shortcut_answers.hpp) and runs the grader's own
// comparator with the test's tolerance on it. A shortcut that passes is a failure,
// naming lab, test and shortcut; so is a tolerance with no relative bound.
//
//   check_shortcut_answers --labs DIR --toolchain toolchain.json --work DIR [--lab labNN]
//
// Performance tests are left out: their datasets are sized for a GPU; each shares its
// task and tolerance rule with correctness tests that are checked here.
// Exit 0: every shortcut fails every test; 1: one passes somewhere; 2: bad arguments.
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parlab/datasets/generator.hpp"
#include "parlab/harness/arrays.hpp"
#include "program_run.hpp"
#include "shortcut_answers.hpp"
#include "spec/lab_spec.hpp"

namespace fs = std::filesystem;
using parlab::Params;
using parlab::grader::DatasetSpec;
using parlab::grader::Device;
using parlab::grader::LabSpec;
using parlab::grader::TestSpec;
using namespace parlab::tolerance;

namespace {

// "cores" (the grader's core count) changes no expected output: any number will do.
Params resolved(const Params& p) {
  Params out = p;
  for (const auto& [k, v] : p.values())
    if (v == "cores") out.set(k, "2");
  return out;
}

fs::path dataset_dir(const LabSpec& lab, const DatasetSpec& ds, const fs::path& work) {
  // Made anew on every run (a few seconds in all): a kept copy would outlive a change
  // to its generator or parameters.
  const fs::path dir = work / lab.id / "datasets" / ds.id;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto* gen = parlab::datasets::find_generator(ds.generator);
  if (!gen) throw std::runtime_error(lab.id + ": unknown generator " + ds.generator);
  gen->generate(ds.params, ds.seed.value_or(12345), dir);  // a fresh dataset: any seed
  return dir;
}

// The dataset's arrays, or none where it is not an array folder (lab01's CSV files).
Arrays dataset_arrays(const fs::path& dir) {
  try {
    return parlab::harness::read_outputs(dir);
  } catch (const std::exception&) {
    return {};
  }
}

struct TestOutputs {
  const TestSpec* test;
  Arrays expected;
  Arrays inputs;
};

// The expected outputs of every correctness test of `lab` (a program that fails is a failure).
std::vector<TestOutputs> expected_outputs(const LabSpec& lab, const fs::path& exe, const fs::path& work,
                                          std::vector<std::string>& failures) {
  std::vector<TestOutputs> out;
  std::map<std::string, fs::path> made;  // dataset id -> folder, made once per run
  int n = 0;
  for (const TestSpec& t : lab.tests) {
    if (t.performance) continue;
    if (!made.count(t.dataset)) made[t.dataset] = dataset_dir(lab, lab.dataset(t.dataset), work);
    const fs::path data = made[t.dataset];
    const fs::path dir = work / lab.id / ("expected-" + std::to_string(n++));
    fs::remove_all(dir);
    std::vector<std::string> args = {"--task", t.task, "--dataset", data.string(), "--out",
                                     dir.string(), "--warmup", "0", "--repeat", "1"};
    const Params params = resolved(t.params);
    for (const auto& [k, v] : params.values()) {
      args.push_back("--param");
      args.push_back(k + "=" + v);
    }
    const fs::path log = dir.string() + ".log";
    const int rc = parlab::limits::run_program(exe, args, log);
    if (rc != 0) {
      failures.push_back(lab.id + " test '" + t.name + "': " + exe.filename().string() + " exited with " +
                         std::to_string(rc) + ":\n" + parlab::limits::log_tail(log));
      continue;
    }
    out.push_back({&t, parlab::harness::read_outputs(dir), dataset_arrays(data)});
  }
  return out;
}

// Another test's outputs are a replayed answer only when its data differ: two tasks on
// the same data (naive and tiled, serial and GPU) rightly agree. Datasets of equal
// content under two names are the same data too.
bool same_data(const TestOutputs& a, const TestOutputs& b) {
  if (a.test->dataset == b.test->dataset) return true;
  if (a.inputs.empty() || a.inputs.size() != b.inputs.size()) return false;
  for (std::size_t i = 0; i < a.inputs.size(); ++i)
    if (a.inputs[i].name != b.inputs[i].name || a.inputs[i].values != b.inputs[i].values) return false;
  return true;
}

void check_lab(const LabSpec& lab, const fs::path& exe, const fs::path& work,
               std::vector<std::string>& failures, std::vector<std::string>& notes, int& tests,
               int& answers) {
  const auto all = expected_outputs(lab, exe, work, failures);
  for (const TestOutputs& mine : all) {
    const TestSpec& t = *mine.test;
    const std::string head = lab.id + " test '" + t.name + "': ";
    if (auto why = missing_relative_bound(t.compare); !why.empty()) failures.push_back(head + why);
    std::vector<OtherOutputs> others;
    for (const TestOutputs& o : all)
      if (!same_data(o, mine)) others.push_back({o.test->name, o.expected});
    for (const std::string& s : passing_shortcuts(mine.expected, mine.inputs, others, t.compare))
      failures.push_back(head + "the shortcut answer '" + s + "' passes");
    for (const Shortcut& s : shortcut_answers(mine.expected, mine.inputs, others)) {
      ++answers;
      if (equals_expected(mine.expected, s)) notes.push_back(head + "'" + s.name + "' is the answer on this data");
    }
    ++tests;
  }
}

int usage(const std::string& why) {
  std::cerr << "check_shortcut_answers: " << why
            << "\nusage: check_shortcut_answers --labs DIR --toolchain toolchain.json --work DIR [--lab labNN]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path labs_dir, toolchain_file, work;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage("option " + a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--labs") labs_dir = v;
    else if (a == "--toolchain") toolchain_file = v;
    else if (a == "--work") work = v;
    else if (a == "--lab") only = v;
    else return usage("unknown option " + a);
  }
  if (labs_dir.empty() || toolchain_file.empty() || work.empty())
    return usage("--labs, --toolchain and --work are required");
  try {
    const auto labs = parlab::grader::load_all_labs(labs_dir);
    const auto toolchain = nlohmann::json::parse(std::ifstream(toolchain_file));
    std::vector<std::string> failures, notes;
    int tests = 0, answers = 0;
    for (const LabSpec& lab : labs) {
      if (!only.empty() && lab.id != only) continue;
      const auto& entry = toolchain.at("labs").at(lab.id);
      const fs::path exe =
          entry.at(lab.kind == Device::gpu ? "cpu_reference_exe" : "reference_exe").get<std::string>();
      check_lab(lab, exe, work, failures, notes, tests, answers);
    }
    for (const auto& n : notes) std::cout << "NOTE " << n << " (no tolerance can fail it)\n";
    for (const auto& f : failures) std::cout << "FAIL " << f << "\n";
    std::cout << tests << " correctness tests, " << answers << " shortcut answers compared: "
              << (failures.empty() ? "every shortcut fails" : std::to_string(failures.size()) + " problems")
              << "\n";
    return failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "check_shortcut_answers: " << e.what() << "\n";
    return 2;
  }
}
