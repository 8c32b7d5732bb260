#include "spec/dataset_stand_ins.hpp"

#include <algorithm>

namespace parlab::grader {
namespace {

const DatasetSpec* dataset_named(const LabSpec& lab, const std::string& id) {
  for (const DatasetSpec& d : lab.datasets)
    if (d.id == id) return &d;
  return nullptr;
}

bool read_by_a_gpu_test(const LabSpec& lab, const std::string& dataset) {
  return std::any_of(lab.tests.begin(), lab.tests.end(), [&](const TestSpec& t) {
    return t.device == Device::gpu && t.dataset == dataset;
  });
}

}  // namespace

std::map<std::string, std::string> read_stand_ins(TomlReader& r, const LabSpec& lab) {
  std::map<std::string, std::string> stand_ins;
  const Params map = r.params("datasets");  // optional
  for (const auto& [from, to] : map.values()) {
    const DatasetSpec* original = dataset_named(lab, from);
    const DatasetSpec* substitute = dataset_named(lab, to);
    if (!original || !substitute) {
      r.fail(r.node("datasets"), "'datasets': '" + (original ? to : from) +
                                     "' is not a dataset of this lab");
    }
    if (original->hidden != substitute->hidden) {
      r.fail(r.node("datasets"), "'datasets': '" + to + "' must be hidden exactly when '" + from +
                                     "' is (hidden data goes to hidden tests only)");
    }
    stand_ins[from] = to;
  }
  return stand_ins;
}

void read_sim_table(TomlReader& top, const toml::table* sim, LabSpec& lab) {
  if (!sim) return;
  TomlReader r(*sim, top.file(), "[sim]");
  r.expect_keys({"datasets"});
  if (lab.kind != Device::gpu) r.fail(nullptr, "[sim] is for a GPU lab ([lab] kind = \"gpu\")");
  lab.sim_datasets = read_stand_ins(r, lab);
  for (const auto& [from, to] : lab.sim_datasets) {
    if (!read_by_a_gpu_test(lab, from)) {
      r.fail(r.node("datasets"), "'datasets': no GPU test reads '" + from +
                                     "', so the simulator never replaces it");
    }
  }
}

LabSpec for_simulator(const LabSpec& lab) {
  LabSpec graded = lab;
  if (lab.track != Track::cpp) return graded;
  for (TestSpec& test : graded.tests) {
    if (test.device != Device::gpu) continue;
    if (const auto it = lab.sim_datasets.find(test.dataset); it != lab.sim_datasets.end())
      test.dataset = it->second;
  }
  return graded;
}

}  // namespace parlab::grader
